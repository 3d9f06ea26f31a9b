"""File objects installed as sys.stdout, sys.stderr and sys.stdin while a run is in progress.

The writers are long-lived: a reference kept by user code (a logging handler made in an earlier
run, `out = sys.stdout`) keeps working in later runs, because each write goes to whatever capture
is current. Outside a run, text goes to the interpreter's original stream.
"""

import io
import sys

STDIN_MESSAGE = (
    "input() is not available: the code runs in the browser without a keyboard. "
    "Put the values in the code instead."
)


class StreamWriter(io.TextIOBase):
    """sys.stdout / sys.stderr during a run: feeds text to the current StreamCapture."""

    def __init__(self, name):
        super().__init__()
        self._name = name
        self.capture = None
        self.buffer = _BinaryWriter(self)

    @property
    def name(self):
        return f"<{self._name}>"

    @property
    def encoding(self):
        return "utf-8"

    @property
    def errors(self):
        return "strict"

    def writable(self):
        return True

    def isatty(self):
        return False

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        capture = self.capture
        if capture is not None:
            capture.write(self._name, text)
        else:
            original = getattr(sys, f"__{self._name}__", None)
            if original is not None and original is not self:
                original.write(text)
        return len(text)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        pass

    def close(self):
        pass  # code that closes sys.stdout must not break later prints

    @property
    def closed(self):
        return False


class _BinaryWriter(io.RawIOBase):
    """`sys.stdout.buffer`: bytes are decoded as UTF-8 and written as text."""

    def __init__(self, text_writer):
        super().__init__()
        self._text = text_writer

    def writable(self):
        return True

    def write(self, data):
        data = bytes(data)
        self._text.write(data.decode("utf-8", errors="replace"))
        return len(data)

    def close(self):
        pass

    @property
    def closed(self):
        return False


class NoStdin(io.TextIOBase):
    """sys.stdin during a run: there is no keyboard, so reading says so clearly."""

    @property
    def name(self):
        return "<stdin>"

    def readable(self):
        return True

    def isatty(self):
        return False

    def read(self, size=-1):
        raise EOFError(STDIN_MESSAGE)

    def readline(self, size=-1):
        raise EOFError(STDIN_MESSAGE)

    def close(self):
        pass
