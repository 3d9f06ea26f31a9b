"""Captures stdout/stderr during a run as coalesced `stream` outputs, with a per-run cap.

The head of the output streams out as it is written; once the cap's first half is used, only a
bounded tail is kept, and at the end (or before the next figure or table) a marker says how much
was elided, followed by the tail.
Memory stays bounded however much the code prints.
"""

import io
from collections import deque

FLUSH_CHARS = 8192


class StreamCapture:
    def __init__(self, emit, limit):
        self._emit = emit
        self._head_budget = limit // 2
        self._tail_budget = limit - self._head_budget
        self._pending_name = None
        self._pending = []
        self._pending_len = 0
        self._tail = deque()
        self._tail_len = 0
        self._tail_name = "stdout"
        self._elided = 0

    def write(self, name, text):
        if not text:
            return
        if self._head_budget > 0:
            head = text[: self._head_budget]
            self._head_budget -= len(head)
            self._buffer(name, head)
            text = text[len(head):]
            if not text:
                return
        self._keep_tail(name, text)

    def _buffer(self, name, text):
        if self._pending_name not in (None, name):
            self.flush()
        self._pending_name = name
        self._pending.append(text)
        self._pending_len += len(text)
        if self._pending_len >= FLUSH_CHARS:
            self.flush()

    def _keep_tail(self, name, text):
        self._tail_name = name
        self._tail.append(text)
        self._tail_len += len(text)
        while self._tail_len > self._tail_budget and self._tail:
            excess = self._tail_len - self._tail_budget
            first = self._tail[0]
            if len(first) <= excess:
                self._tail.popleft()
                self._tail_len -= len(first)
                self._elided += len(first)
            else:
                self._tail[0] = first[excess:]
                self._tail_len -= excess
                self._elided += excess

    def flush(self):
        """Emits everything kept so far, in order: buffered head text, then (once the cap's first
        half is used) the elision marker and the kept tail. Called before any other output so
        text printed before a figure stays before it; the tail's budget shrinks by what it emitted,
        so the run's total stays within the cap."""
        if self._pending:
            self._emit({"output_type": "stream", "name": self._pending_name, "text": "".join(self._pending)})
        self._pending, self._pending_len, self._pending_name = [], 0, None
        if self._tail or self._elided:
            tail = "".join(self._tail)
            if self._elided:
                tail = f"\n… [{self._elided:,} characters elided] …\n" + tail
            self._emit({"output_type": "stream", "name": self._tail_name, "text": tail})
            self._tail_budget -= self._tail_len
            self._tail.clear()
            self._tail_len = 0
            self._elided = 0

    def finish(self):
        self.flush()


class StreamWriter(io.TextIOBase):
    """A file-like object for sys.stdout / sys.stderr that feeds a StreamCapture."""

    def __init__(self, capture, name):
        self._capture = capture
        self._name = name

    @property
    def name(self):
        return f"<{self._name}>"

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._capture.write(self._name, text)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False
