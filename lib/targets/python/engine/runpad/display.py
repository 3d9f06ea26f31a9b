"""IPython-like `display()`, installed as a builtin by the kernel."""

from . import session as _session
from .formatters import is_figure, raw_bundle, to_bundle


def publish(output_type, obj, raw=False):
    run = _session.current()
    if run is None:
        return
    if raw and isinstance(obj, dict):
        run.publish(output_type, raw_bundle(obj, run.caps))
        return
    if is_figure(obj):
        run.shown_figures.add(id(obj))
    run.publish(output_type, to_bundle(obj, run.caps))


def display(*objs, raw=False, **_ignored):
    """Shows each object as a rich output (image, table, chart, markdown or text) below the cell.

    With raw=True (as in IPython) each object that is a dict is a MIME bundle already, e.g.
    `display({"application/vnd.vegalite.v5+json": spec}, raw=True)` for an interactive chart.
    """
    for obj in objs:
        publish("display_data", obj, raw=raw)
