"""IPython-like `display()`, installed as a builtin by the kernel."""

from . import session as _session
from .formatters import is_figure, to_bundle


def publish(output_type, obj):
    run = _session.current()
    if run is None:
        return
    if is_figure(obj):
        run.shown_figures.add(id(obj))
    run.publish(output_type, to_bundle(obj, run.caps))


def display(*objs, **_ignored):
    """Shows each object as a rich output (image, table, markdown or text) below the cell."""
    for obj in objs:
        publish("display_data", obj)
