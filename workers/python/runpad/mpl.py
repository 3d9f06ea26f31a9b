"""Matplotlib figures as PNG outputs: sensible size, under the image cap, each shown once."""

import base64
import io
import sys

from . import session as _session

DPI = 100
MIN_DPI = 30


def _render(fig, dpi):
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight", facecolor="white")
    return buffer.getvalue()


def figure_png(fig, max_bytes):
    """PNG bytes of fig, re-rendered at a lower resolution until they fit max_bytes."""
    dpi = DPI
    png = _render(fig, dpi)
    while len(png) > max_bytes and dpi > MIN_DPI:
        dpi = max(MIN_DPI, int(dpi * 0.7))
        png = _render(fig, dpi)
    return png


def figure_text(fig):
    width, height = fig.get_size_inches() * fig.dpi
    return f"<Figure size {width:.0f}x{height:.0f} with {len(fig.axes)} Axes>"


def figure_bundle(fig, caps):
    png = figure_png(fig, caps.image_bytes)
    return {"image/png": base64.b64encode(png).decode("ascii"), "text/plain": figure_text(fig)}


def flush_figures():
    """Emits every open figure not shown yet, in creation order, then closes them all."""
    if "matplotlib.pyplot" not in sys.modules:
        return
    import matplotlib.pyplot as plt

    run = _session.current()
    for number in sorted(plt.get_fignums()):
        fig = plt.figure(number)
        if run is not None and id(fig) not in run.shown_figures and fig.axes:
            run.shown_figures.add(id(fig))
            run.publish("display_data", figure_bundle(fig, run.caps))
    plt.close("all")
