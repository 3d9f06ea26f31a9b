"""Tracebacks as Jupyter `error` outputs: plain text, the user's frames only."""

import os
import traceback

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _is_internal(frame):
    return os.path.abspath(frame.filename).startswith(PACKAGE_DIR + os.sep)


def error_output(error):
    exc_type = type(error)
    info = traceback.TracebackException(exc_type, error, error.__traceback__)
    # Start at the user's first frame: frames of the kernel (and of ast/compile for a
    # SyntaxError) say nothing about the user's code.
    frames = list(info.stack)
    first_cell = next((i for i, f in enumerate(frames) if f.filename.startswith("<cell-")), len(frames))
    frames = [frame for frame in frames[first_cell:] if not _is_internal(frame)]
    info.stack = traceback.StackSummary.from_list(frames)
    lines = "".join(info.format()).rstrip("\n").split("\n")
    return {
        "output_type": "error",
        "ename": exc_type.__name__,
        "evalue": str(error),
        "traceback": lines,
    }
