"""Printed text reaches the page while the code runs: batched, never held until the run ends."""

import os
import signal

import pytest

from runpad.streams import FLUSH_AFTER_S, StreamCapture, install_flush_signal
from runpad.waiting import interruptible_sleep


class Clock:
    def __init__(self):
        self.now = 10.0

    def __call__(self):
        return self.now


def capture_with(clock, limit=10_000):
    emitted = []
    return StreamCapture(emitted.append, limit, clock=clock), emitted


def test_text_written_together_leaves_in_one_batch():
    clock = Clock()
    capture, emitted = capture_with(clock)
    for i in range(50):
        capture.write("stdout", f"{i}\n")
    assert emitted == []
    capture.finish()
    assert emitted == [{"output_type": "stream", "name": "stdout", "text": "".join(f"{i}\n" for i in range(50))}]


def test_a_batch_leaves_once_its_oldest_text_has_waited():
    clock = Clock()
    capture, emitted = capture_with(clock)
    capture.write("stdout", "one\n")
    clock.now += FLUSH_AFTER_S / 2
    capture.write("stdout", "two\n")
    assert emitted == []
    clock.now += FLUSH_AFTER_S / 2
    capture.write("stdout", "three\n")
    assert emitted == [{"output_type": "stream", "name": "stdout", "text": "one\ntwo\nthree\n"}]
    # The next batch's age counts from its own first text.
    capture.write("stdout", "four\n")
    assert len(emitted) == 1


def test_a_flush_asked_from_outside_sends_the_pending_text_and_not_the_tail():
    clock = Clock()
    capture, emitted = capture_with(clock, limit=20)
    capture.write("stdout", "0123456789")
    capture.flush_pending()
    assert emitted == [{"output_type": "stream", "name": "stdout", "text": "0123456789"}]
    capture.flush_pending()  # nothing pending: nothing sent
    capture.write("stdout", "tail text past the head")
    capture.flush_pending()
    assert len(emitted) == 1  # the kept tail is only known at the end
    capture.finish()
    assert emitted[-1]["text"].endswith("the head")


def test_a_flush_asked_while_the_capture_is_writing_waits():
    clock = Clock()
    emitted = []
    capture = StreamCapture(lambda output: emitted.append(output), 100_000, clock=clock)
    inner = []

    def emit_and_ask(output):
        capture.flush_pending()  # as a signal arriving mid-flush would
        inner.append(output)

    capture._emit = emit_and_ask
    capture.write("stdout", "x" * 9000)
    assert [o["text"] for o in inner] == ["x" * 9000]


def test_a_sleep_sends_the_printed_text_first_when_it_is_long():
    flushes = []
    waits = []
    clock = Clock()

    def wait(ms):
        waits.append(ms)
        clock.now += ms / 1000

    sleep = interruptible_sleep(wait, clock=clock, before_wait=lambda: flushes.append(clock.now))
    sleep(0.01)
    assert flushes == []
    sleep(1)
    assert flushes == [clock.now - 1]


@pytest.fixture
def flush_signal():
    previous = signal.getsignal(signal.SIGUSR1)
    install_flush_signal(signal.SIGUSR1)
    yield
    signal.signal(signal.SIGUSR1, previous)


def test_the_pages_flush_signal_sends_text_during_a_silent_computation(kernel, flush_signal):
    code = (
        "import os, signal\n"
        "print('started')\n"
        "os.kill(os.getpid(), signal.SIGUSR1)\n"
        "total = sum(range(1000))\n"
        "print('done')\n"
    )
    status, outputs = kernel.run(code)
    assert status == "ok"
    assert kernel.streamed == [{"output_type": "stream", "name": "stdout", "text": "started\n"}]
    assert "".join(o["text"] for o in outputs) == "started\ndone\n"


def test_printing_slowly_streams_each_line(kernel):
    code = (
        "import time\n"
        "for i in range(3):\n"
        "    print(i)\n"
        "    t = time.monotonic()\n"
        f"    while time.monotonic() - t < {FLUSH_AFTER_S * 1.5}: pass\n"
    )
    status, outputs = kernel.run(code)
    assert status == "ok"
    # Each batch leaves as a line ends once its oldest text has waited; the last line comes with
    # the reply here (in the browser the page's flush signal sends it during the silence).
    assert [o["text"] for o in kernel.streamed] == ["0\n1\n"]
    assert kernel.stdout() == "0\n1\n2\n"


def test_a_quick_run_still_sends_its_text_with_the_reply(kernel, monkeypatch):
    # The run's text is all written within one batching window: the capture's clock is held still
    # (on a busy machine 100 prints can take longer than the window, and then streaming is right).
    from runpad import kernel as kernel_module

    clock = Clock()
    monkeypatch.setattr(kernel_module, "StreamCapture", lambda emit, limit: StreamCapture(emit, limit, clock=clock))
    assert os.environ.get("MPLBACKEND")
    status, outputs = kernel.run("for i in range(100): print(i)")
    assert status == "ok"
    assert kernel.streamed == []
    assert kernel.stdout() == "".join(f"{i}\n" for i in range(100))
