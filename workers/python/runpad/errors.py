"""Tracebacks as Jupyter `error` outputs: plain text, formatted as Python does, with the frames
of this package (and of the machinery before the user's first frame) removed."""

import os
import traceback

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
CELL_PREFIX = "<cell-"


def _is_internal(frame):
    filename = frame.filename or ""
    if filename.startswith("<"):
        return False
    return os.path.abspath(filename).startswith(PACKAGE_DIR + os.sep)


def _user_frames(stack, top):
    frames = list(stack)
    # Before the first frame of a cell there is only the kernel (and, for a SyntaxError, ast and
    # compile): none of it says anything about the user's code. An exception raised before any
    # cell frame ran (a compile error) has no user frames at all. A chained exception caught
    # inside a library may have no cell frame either: its library frames are kept.
    first_cell = next((i for i, f in enumerate(frames) if (f.filename or "").startswith(CELL_PREFIX)), None)
    if first_cell is not None:
        frames = frames[first_cell:]
    elif top:
        frames = []
    return traceback.StackSummary.from_list([f for f in frames if not _is_internal(f)])


def _filter(info, seen, top=False):
    """Filters the stack of info and of every exception chained to it (cause, context, group)."""
    if info is None or id(info) in seen:
        return
    seen.add(id(info))
    info.stack = _user_frames(info.stack, top)
    _filter(getattr(info, "__cause__", None), seen)
    _filter(getattr(info, "__context__", None), seen)
    for member in getattr(info, "exceptions", None) or ():
        _filter(member, seen)


def _safe_str(error):
    try:
        return str(error)
    except Exception:  # noqa: BLE001 - a broken __str__ must not hide the error itself
        return "<exception str() failed>"


def error_output(error):
    """The `error` output for an exception raised by the user's code."""
    ename = type(error).__name__
    evalue = _safe_str(error)
    try:
        info = traceback.TracebackException.from_exception(error)
        _filter(info, set(), top=True)
        lines = "".join(info.format()).rstrip("\n").split("\n")
    except BaseException:  # noqa: BLE001 - e.g. MemoryError while formatting: still report it
        lines = [f"{ename}: {evalue}" if evalue else ename]
    return {"output_type": "error", "ename": ename, "evalue": evalue, "traceback": lines}
