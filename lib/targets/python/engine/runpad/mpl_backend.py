"""A matplotlib backend for the worker (`MPLBACKEND=module://runpad.mpl_backend`).

Agg canvases (a worker has no `document`, so Pyodide's default backend cannot work); `show()`
emits the open figures as PNG outputs and closes them.
"""

from matplotlib.backend_bases import FigureManagerBase
from matplotlib.backends.backend_agg import FigureCanvasAgg

FigureCanvas = FigureCanvasAgg
FigureManager = FigureManagerBase


def show(*_args, **_kwargs):
    from .mpl import flush_figures

    flush_figures()
