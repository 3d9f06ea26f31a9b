"""Captures stdout/stderr during a run as coalesced `stream` outputs, with a per-run cap.

The head of the output streams out as it is written; once the cap's first half is used, only a
bounded tail is kept, and at the end (or before the next figure or table) a marker says how much
was elided, followed by the tail.
Memory stays bounded however much the code prints.

Text goes out in batches, never held until the run ends: a batch leaves once it is FLUSH_CHARS
long, once its oldest text has waited FLUSH_AFTER_S (checked as a line ends), and whenever the
page asks (`flush_pending`, from a signal the page sends while a run goes on, and before a sleep:
runpad/waiting.py), so text written just before a long silent computation or a sleep shows too.
A run that ends within FLUSH_AFTER_S sends all its text with its reply: one message to the page.
"""

import io
import time
from collections import deque

FLUSH_CHARS = 8192
# Text waits at most this long for more to join it, as long as the code keeps writing.
FLUSH_AFTER_S = 0.1


class StreamCapture:
    def __init__(self, emit, limit, clock=time.monotonic):
        self._emit = emit
        self._clock = clock
        self._pending_since = 0.0
        # Set while the capture changes its own state: a flush asked for then (from a signal
        # handler, between two bytecodes) waits for the next write instead of splitting it.
        self._busy = False
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
        self._busy = True
        try:
            self._write(name, text)
        finally:
            self._busy = False

    def _write(self, name, text):
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
        now = self._clock()
        if not self._pending:
            self._pending_since = now
        self._pending_name = name
        self._pending.append(text)
        self._pending_len += len(text)
        # By age only at the end of a line (or a progress line's update): a line stays whole.
        aged = now - self._pending_since >= FLUSH_AFTER_S and text[-1] in "\n\r"
        if self._pending_len >= FLUSH_CHARS or aged:
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

    def flush_pending(self):
        """The head text written so far, sent now (asked for from outside the run's own writes).
        The kept tail waits for the end: it is the last part of the text, known only then."""
        if self._busy or not self._pending:
            return
        self._busy = True
        try:
            pending, name = "".join(self._pending), self._pending_name
            self._pending, self._pending_len, self._pending_name = [], 0, None
            self._emit({"output_type": "stream", "name": name, "text": pending})
        finally:
            self._busy = False

    def flush(self):
        """Emits everything kept so far, in order: buffered head text, then (once the cap's first
        half is used) the elision marker and the kept tail. Called before any other output so
        text printed before a figure stays before it; the tail's budget shrinks by what it emitted,
        so the run's total stays within the cap."""
        was_busy, self._busy = self._busy, True
        try:
            if self._pending:
                pending, name = "".join(self._pending), self._pending_name
                self._pending, self._pending_len, self._pending_name = [], 0, None
                self._emit({"output_type": "stream", "name": name, "text": pending})
            if self._tail or self._elided:
                tail = "".join(self._tail)
                if self._elided:
                    tail = f"\n… [{self._elided:,} characters elided] …\n" + tail
                self._tail_budget -= self._tail_len
                self._tail.clear()
                self._tail_len = 0
                self._elided = 0
                self._emit({"output_type": "stream", "name": self._tail_name, "text": tail})
        finally:
            self._busy = was_busy

    def finish(self):
        self.flush()


def flush_current_run(*_signal):
    """Sends the text the running code has written so far (a signal handler: see install_flush_signal)."""
    from . import session

    run = session.current()
    if run is not None:
        run.capture.flush_pending()


def install_flush_signal(signum):
    """While a run goes on the page writes `signum` into the interrupt buffer now and then; Python
    calls this handler between two bytecodes, so text waits for no write that may never come."""
    import signal

    signal.signal(signum, flush_current_run)


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
