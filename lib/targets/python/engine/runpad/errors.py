"""Tracebacks as Jupyter `error` outputs: plain text, the user's frames only, as CPython writes
them, from a bounded number of frames.

A runaway recursion under a raised limit fails a million frames deep; CPython's formatter builds
a summary of every frame (seconds natively, far longer in the browser) to print three of them.
Here the traceback is walked once, consecutive entries of one line are counted as one, only
_FRAMES_KEPT distinct entries at each end are formatted, and the rest is said in one line.
"""

import collections
import functools
import os
import traceback
import types

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))

# As CPython's own formatter: a line repeated more often is shown this many times, then counted.
_REPEATS_SHOWN = 3
# Distinct entries kept at each end of a stack; what lies between is one "not shown" line.
_FRAMES_KEPT = 50


@functools.lru_cache(maxsize=256)
def _is_internal(filename):
    return os.path.abspath(filename).startswith(PACKAGE_DIR + os.sep)


class _Compacted:
    """One exception's stack as runs of one line each: the entries kept and how often each repeats."""

    def __init__(self, tb, user_only):
        head, tail = [], collections.deque()
        self.omitted = 0
        last = None
        # The top exception starts at the user's first frame: frames of the kernel (and of
        # ast/compile for a SyntaxError) say nothing about the user's code.
        started = not user_only
        while tb is not None:
            code, line = tb.tb_frame.f_code, tb.tb_lineno
            # A recursion's repeats of this entry, counted in a loop that does nothing else.
            entry, count, tb = tb, 1, tb.tb_next
            while tb is not None and tb.tb_lineno == line and tb.tb_frame.f_code is code:
                count, tb = count + 1, tb.tb_next
            started = started or code.co_filename.startswith("<cell-")
            if not started or (user_only and _is_internal(code.co_filename)):
                continue
            if last is not None and last[0].tb_frame.f_code is code and last[0].tb_lineno == line:
                last[1] += count  # the same line around a left-out kernel frame
                continue
            last = [entry, count]
            if len(head) < _FRAMES_KEPT:
                head.append(last)
            else:
                tail.append(last)
                if len(tail) > _FRAMES_KEPT:
                    self.omitted += tail.popleft()[1]
        self.omitted_at = len(head)
        runs = head + list(tail)
        self.counts = [count for _, count in runs]
        # A traceback of the kept entries only, for CPython to format (positions, carets, source).
        self.traceback = None
        for entry, _ in reversed(runs):
            self.traceback = types.TracebackType(self.traceback, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)


class _CountedStack(traceback.StackSummary):
    """A stack of one summary per run, formatted with each run's repeats and the omitted middle."""

    def format(self, **kwargs):
        lines = []
        for index, (frame, count) in enumerate(zip(self, self.counts)):
            if index == self.omitted_at and self.omitted:
                lines.append(f"  [{self.omitted} more frames not shown]\n")
            formatted = self.format_frame_summary(frame, **kwargs)
            if formatted is None:
                continue
            lines.extend([formatted] * min(count, _REPEATS_SHOWN))
            if count > _REPEATS_SHOWN:
                more = count - _REPEATS_SHOWN
                lines.append(f"  [Previous line repeated {more} more time{'s' if more > 1 else ''}]\n")
        return lines


def _chain(error):
    """The exceptions a traceback of `error` shows: it, its cause, context and group members."""
    seen, pending = {}, [error]
    while pending:
        exc = pending.pop()
        if exc is None or id(exc) in seen:
            continue
        seen[id(exc)] = exc
        pending += [exc.__cause__, exc.__context__, *getattr(exc, "exceptions", ())]
    return list(seen.values())


def _count_repeats(info, exc, compacted, seen):
    """Gives each stack of `info` (built from compacted tracebacks) its runs' repeat counts."""
    if info is None or exc is None or id(info) in seen:
        return
    seen.add(id(info))
    runs = compacted.get(id(exc))
    # sys.tracebacklimit may have shortened the stack: it is then left as CPython made it.
    if runs is not None and len(info.stack) == len(runs.counts):
        stack = _CountedStack(info.stack)
        stack.counts, stack.omitted, stack.omitted_at = runs.counts, runs.omitted, runs.omitted_at
        info.stack = stack
    _count_repeats(info.__cause__, exc.__cause__, compacted, seen)
    _count_repeats(info.__context__, exc.__context__, compacted, seen)
    for info_member, member in zip(getattr(info, "exceptions", None) or (), getattr(exc, "exceptions", ())):
        _count_repeats(info_member, member, compacted, seen)


def error_output(error):
    exc_type = type(error)
    chain = _chain(error)
    originals = {id(exc): exc.__traceback__ for exc in chain}
    compacted = {id(exc): _Compacted(exc.__traceback__, user_only=exc is error) for exc in chain}
    try:
        for exc in chain:
            exc.__traceback__ = compacted[id(exc)].traceback
        info = traceback.TracebackException(exc_type, error, error.__traceback__)
    finally:
        for exc in chain:
            exc.__traceback__ = originals[id(exc)]
    _count_repeats(info, error, compacted, set())
    lines = "".join(info.format()).rstrip("\n").split("\n")
    return {
        "output_type": "error",
        "ename": exc_type.__name__,
        "evalue": str(error),
        "traceback": lines,
    }
