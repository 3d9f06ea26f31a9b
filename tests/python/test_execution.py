import asyncio
import inspect
import json


def test_print_and_last_expression(kernel):
    status, outputs = kernel.run("x = 6 * 7\nprint('x is', x)\nx + 1")
    assert status == "ok"
    assert outputs[0] == {"output_type": "stream", "name": "stdout", "text": "x is 42\n"}
    assert outputs[1] == {"output_type": "execute_result", "data": {"text/plain": "43"}}


def test_state_persists_between_runs(kernel):
    kernel.run("counter = 10")
    status, outputs = kernel.run("counter += 5\ncounter")
    assert status == "ok"
    assert outputs[-1]["data"]["text/plain"] == "15"


def test_semicolon_none_and_assignment_suppress_the_value(kernel):
    assert kernel.run("1 + 1;")[1] == []
    assert kernel.run("None")[1] == []
    assert kernel.run("y = 3")[1] == []
    assert kernel.run("print('a')")[1] == [{"output_type": "stream", "name": "stdout", "text": "a\n"}]


def test_underscore_holds_the_last_value(kernel):
    kernel.run("21 * 2")
    assert kernel.run("_")[1][0]["data"]["text/plain"] == "42"


def test_top_level_await(kernel):
    status, outputs = kernel.run("import asyncio\nawait asyncio.sleep(0)\nawait asyncio.sleep(0, result='done')")
    assert status == "ok"
    assert outputs[-1]["data"]["text/plain"] == "'done'"


def test_stdout_and_stderr_keep_their_order(kernel):
    status, outputs = kernel.run("import sys\nprint('one')\nprint('two', file=sys.stderr)\nprint('three')")
    assert [(o["name"], o["text"]) for o in outputs] == [("stdout", "one\n"), ("stderr", "two\n"), ("stdout", "three\n")]


def test_many_prints_are_coalesced(kernel):
    status, outputs = kernel.run("for i in range(1000): print(i)")
    assert status == "ok"
    assert len(outputs) < 5
    assert kernel.stdout() == "".join(f"{i}\n" for i in range(1000))


def test_stream_cap_elides_the_middle_and_keeps_the_tail(make_kernel):
    harness = make_kernel(streamChars=1_000)
    status, _ = harness.run("for i in range(200_000): print(f'line {i}')")
    assert status == "ok"
    text = harness.stdout()
    assert text.startswith("line 0\nline 1\n")
    assert "characters elided" in text
    assert text.rstrip().endswith("line 199999")
    assert len(text) < 1_100


def test_printing_20_mb_stays_bounded(make_kernel):
    harness = make_kernel(streamChars=100_000)
    harness.run("chunk = 'x' * 1000 + '\\n'\nfor _ in range(20_000): print(chunk, end='')")
    assert 100_000 <= len(harness.stdout()) < 101_000


def test_error_has_the_users_frames_and_source(kernel):
    status, outputs = kernel.run("def divide(a, b):\n    return a / b\n\ndivide(1, 0)")
    assert status == "error"
    (error,) = [o for o in outputs if o["output_type"] == "error"]
    assert error["ename"] == "ZeroDivisionError"
    assert error["evalue"] == "division by zero"
    trace = "\n".join(error["traceback"])
    assert "return a / b" in trace and "divide(1, 0)" in trace
    assert "runpad" not in trace
    assert error["traceback"][-1] == "ZeroDivisionError: division by zero"


def test_output_before_an_error_comes_first(kernel):
    _, outputs = kernel.run("print('before')\nraise ValueError('bad value')")
    assert [o["output_type"] for o in outputs] == ["stream", "error"]


def test_syntax_error_points_at_the_line(kernel):
    status, outputs = kernel.run("x = 1\nprint(x")
    assert status == "error"
    error = outputs[-1]
    assert error["ename"] == "SyntaxError"
    trace = "\n".join(error["traceback"])
    assert "ast.py" not in trace and "<cell-" in trace


def test_keyboard_interrupt_is_interrupted(kernel):
    status, outputs = kernel.run("raise KeyboardInterrupt")
    assert status == "interrupted"
    assert outputs[-1]["ename"] == "KeyboardInterrupt"


def test_memory_and_recursion_errors_are_ordinary_errors(kernel):
    assert kernel.run("raise MemoryError('too big')")[0] == "error"
    status, outputs = kernel.run("def f(): return f()\nf()")
    assert status == "error" and outputs[-1]["ename"] == "RecursionError"
    assert kernel.run("print('still alive')")[1][0]["text"] == "still alive\n"


def _frame_summaries_built(monkeypatch):
    """Counts the frames a traceback is formatted from (CPython builds one FrameSummary each)."""
    import traceback

    built = []

    class CountedFrameSummary(traceback.FrameSummary):
        def __init__(self, *args, **kwargs):
            built.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(traceback, "FrameSummary", CountedFrameSummary)
    return built


def _deep_error(kernel, monkeypatch, limit, code, ename):
    """The traceback lines of `code` failing deep under a raised recursion limit, checked to be
    formatted from a few frames."""
    kernel.run(f"import sys\nsys.setrecursionlimit({limit})")
    built = _frame_summaries_built(monkeypatch)
    status, outputs = kernel.run(code)
    assert status == "error" and outputs[-1]["ename"] == ename
    assert len(built) < 200
    return outputs[-1]["traceback"]


def test_a_recursion_100_000_frames_deep_is_formatted_from_a_few(kernel, monkeypatch):
    # With a raised limit, a runaway recursion fails 100,000 frames deep; formatting every frame
    # took seconds natively and far longer in the browser. Its repeats are counted instead.
    lines = _deep_error(kernel, monkeypatch, 100_500, "def f(n):\n    return f(n + 1)\nf(0)", "RecursionError")
    assert lines[0] == "Traceback (most recent call last):"
    assert sum("return f(n + 1)" in line for line in lines) == 3
    repeated = [line for line in lines if line.startswith("  [Previous line repeated ")]
    assert len(repeated) == 1 and int(repeated[0].split()[3]) > 99_000
    assert lines[-1].startswith("RecursionError: maximum recursion depth exceeded")


def test_a_repeated_line_is_shown_three_times_then_counted_as_python_does(kernel):
    status, outputs = kernel.run("def f(n):\n    if n == 0:\n        raise ValueError('bottom')\n    return f(n - 1)\nf(10)")
    assert status == "error"
    lines = outputs[-1]["traceback"]
    assert sum("return f(n - 1)" in line for line in lines) == 3
    assert "  [Previous line repeated 7 more times]" in lines
    assert sum("raise ValueError('bottom')" in line for line in lines) == 1
    assert lines[-1] == "ValueError: bottom"


def test_a_deep_stack_of_distinct_frames_keeps_both_ends_and_says_what_it_left_out(kernel, monkeypatch):
    # Two functions calling each other repeat no single line: the middle of the stack is left out.
    code = "def ping(n):\n    return pong(n + 1)\ndef pong(n):\n    return ping(n + 1)\nping(0)"
    lines = _deep_error(kernel, monkeypatch, 20_500, code, "RecursionError")
    assert "ping(0)" in lines[2]
    omitted = [line for line in lines if line.endswith("frames not shown]")]
    assert len(omitted) == 1 and int(omitted[0].split()[0].lstrip("[")) > 19_000


def test_a_chained_deep_recursion_is_formatted_from_a_few_frames_too(kernel, monkeypatch):
    code = "def f(n):\n    return f(n + 1)\ntry:\n    f(0)\nexcept RecursionError as error:\n    raise ValueError('too deep') from error"
    trace = "\n".join(_deep_error(kernel, monkeypatch, 100_500, code, "ValueError"))
    assert "The above exception was the direct cause of the following exception:" in trace
    assert "RecursionError" in trace and "[Previous line repeated" in trace
    assert trace.endswith("ValueError: too deep")


def test_system_exit(kernel):
    assert kernel.run("import sys\nsys.exit(0)") == ("ok", [])
    status, outputs = kernel.run("import sys\nsys.exit(3)")
    assert status == "error" and outputs[-1]["ename"] == "SystemExit"


def test_text_past_half_the_cap_stays_before_a_later_figure(make_kernel):
    harness = make_kernel(streamChars=1_000)
    code = (
        "class Pic:\n"
        "    def _repr_png_(self):\n"
        "        return b'\\x89PNG\\r\\n\\x1a\\n'\n"
        "print('a' * 700)\n"
        "display(Pic())\n"
        "print('after')\n"
    )
    status, outputs = harness.run(code)
    assert status == "ok"
    kinds = [o["output_type"] for o in outputs]
    image_at = kinds.index("display_data")
    before = "".join(o["text"] for o in outputs[:image_at] if o["output_type"] == "stream")
    after = "".join(o["text"] for o in outputs[image_at + 1:] if o["output_type"] == "stream")
    assert before.count("a") == 700
    assert after == "after\n"
    assert len(before) + len(after) <= 1_000


def test_a_cell_that_cannot_await_is_done_at_once(kernel):
    # The worker's entry point returns the result itself: no pass through the event loop.
    result = kernel.kernel.start("x = 6 * 7\nx")
    assert result["status"] == "ok"
    result = kernel.kernel.start("x + 1")
    assert result["status"] == "ok"
    assert json.loads(result["outputs"][-1])["data"]["text/plain"] == "43"


def test_a_cell_that_awaits_or_names_await_goes_through_the_event_loop(kernel):
    pending = kernel.kernel.start("import asyncio\nawait asyncio.sleep(0, result=1)")
    assert inspect.iscoroutine(pending)
    assert asyncio.run(pending)["status"] == "ok"
    # Only a cheap textual test decides: a string naming await takes the loop too, and still runs.
    status, outputs = kernel.run("s = 'await me'\ns")
    assert status == "ok"
    assert outputs[-1]["data"]["text/plain"] == "'await me'"


def test_a_cell_that_fails_at_once_reports_its_error(kernel):
    result = kernel.kernel.start("1 / 0")
    assert result["status"] == "error"
    assert json.loads(result["outputs"][0])["ename"] == "ZeroDivisionError"


def test_what_comes_after_the_code_travels_with_the_result(kernel):
    # The cell's value, the rest of its printed text and its traceback come in the run's reply (one
    # message to the page); only what the code emits while it still runs is sent as it happens.
    status, outputs = kernel.run("print('short')\n1 + 1")
    assert status == "ok"
    assert kernel.streamed == []
    assert [o["output_type"] for o in outputs] == ["stream", "execute_result"]

    status, outputs = kernel.run("print('x' * 4000, end='')\ndisplay('shown while running')\nprint('end')\n'done'")
    assert [o["output_type"] for o in kernel.streamed] == ["stream", "display_data"]
    assert [o["output_type"] for o in outputs] == ["stream", "display_data", "stream", "execute_result"]
    assert outputs[2]["text"] == "end\n"

    status, outputs = kernel.run("raise ValueError('late')")
    assert status == "error"
    assert kernel.streamed == []
    assert outputs[-1]["ename"] == "ValueError"


def test_an_awaiting_cell_streams_while_it_waits_and_returns_the_rest(kernel):
    status, outputs = kernel.run("import asyncio\ndisplay('before')\nawait asyncio.sleep(0)\n7")
    assert status == "ok"
    assert [o["output_type"] for o in kernel.streamed] == ["display_data"]
    assert outputs[-1]["data"]["text/plain"] == "7"
