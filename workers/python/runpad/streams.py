"""Captures stdout/stderr during a run as coalesced `stream` outputs, with a per-run cap.

Text is buffered and emitted in chunks (when the buffer passes FLUSH_CHARS, when the stream
changes, before any other output, and at the end of the run), never one output per print.

The cap: the first half of the budget streams out as it is written (the head); after that only a
bounded tail is kept (the last half), and at the end a marker says how much was elided, followed
by the tail. Memory stays bounded however much the code prints.
"""

from collections import deque

FLUSH_CHARS = 8192


def elision_marker(count):
    return f"\n… [{count:,} characters elided] …\n"


class StreamCapture:
    def __init__(self, emit, limit):
        self._emit = emit
        self._head_budget = max(0, int(limit)) // 2
        self._tail_budget = max(0, int(limit)) - self._head_budget
        self._pending_name = None
        self._pending = []
        self._pending_len = 0
        self._tail = deque()  # [name, text] segments, oldest first
        self._tail_len = 0
        self._open_name = None  # small writes not yet joined into a tail segment
        self._open_pieces = []
        self._open_len = 0
        self._elided = 0

    def write(self, name, text):
        if not text:
            return
        if self._head_budget > 0:
            head = text[: self._head_budget]
            self._head_budget -= len(head)
            self._buffer(name, head)
            if len(head) == len(text):
                return
            text = text[len(head):]
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
        budget = self._tail_budget
        if len(text) >= budget:
            # One write fills the whole tail: everything kept so far is elided.
            self._elided += self._tail_len + self._open_len + len(text) - budget
            self._tail.clear()
            self._tail_len = 0
            self._open_pieces, self._open_len = [], 0
            text = text[len(text) - budget:] if budget else ""
            if not text:
                return
        if self._open_name != name:
            self._compact()
            self._open_name = name
        self._open_pieces.append(text)
        self._open_len += len(text)
        if self._open_len >= FLUSH_CHARS:
            self._compact()

    def _compact(self):
        """Joins the small pieces written last into one tail segment, then trims the tail's
        oldest text down to the budget (so the tail is at most FLUSH_CHARS over it)."""
        if self._open_pieces:
            self._tail.append([self._open_name, "".join(self._open_pieces)])
            self._tail_len += self._open_len
            self._open_pieces, self._open_len = [], 0
        while self._tail_len > self._tail_budget:
            excess = self._tail_len - self._tail_budget
            first = self._tail[0]
            if len(first[1]) <= excess:
                self._tail.popleft()
                self._tail_len -= len(first[1])
                self._elided += len(first[1])
            else:
                first[1] = first[1][excess:]
                self._tail_len -= excess
                self._elided += excess

    def flush(self):
        """Emits buffered head text. Called before any other output, so order is kept."""
        if self._pending:
            text = "".join(self._pending)
            name = self._pending_name
            self._pending, self._pending_len, self._pending_name = [], 0, None
            self._emit({"output_type": "stream", "name": name, "text": text})

    def finish(self):
        """Emits everything still held: the buffer, then the elision marker and the tail."""
        self.flush()
        self._compact()
        segments = []
        for name, text in self._tail:
            if segments and segments[-1][0] == name:
                segments[-1][1].append(text)
            else:
                segments.append([name, [text]])
        segments = [[name, "".join(parts)] for name, parts in segments]
        elided = self._elided
        self._tail.clear()
        self._tail_len = 0
        self._elided = 0
        if elided and not segments:
            segments = [["stdout", ""]]
        for index, (name, text) in enumerate(segments):
            if index == 0 and elided:
                text = elision_marker(elided) + text
            self._emit({"output_type": "stream", "name": name, "text": text})
