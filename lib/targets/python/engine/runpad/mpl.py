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


def _axes_text(index, ax):
    """One line per Axes: its title, axis labels and ranges, and what it draws (for a model without image input)."""
    parts = [f"Axes {index}:"]
    if ax.get_title():
        parts.append(f"title {ax.get_title()!r};")
    for name, label, limits in (("x", ax.get_xlabel(), ax.get_xlim()), ("y", ax.get_ylabel(), ax.get_ylim())):
        parts.append(f"{name} axis {label!r} from {limits[0]:.4g} to {limits[1]:.4g};")
    lines = [line.get_label() for line in ax.get_lines()]
    if lines:
        parts.append(f"{len(lines)} line(s): {', '.join(l for l in lines if not l.startswith('_')) or 'unlabelled'};")
    if ax.patches:
        parts.append(f"{len(ax.patches)} bar(s)/patch(es);")
    if ax.collections:
        parts.append(f"{len(ax.collections)} scatter/collection(s);")
    return " ".join(parts).rstrip(";")


def figure_text(fig):
    """Matplotlib's own repr first, then each Axes described in words (title, axes, series)."""
    width, height = fig.get_size_inches() * fig.dpi
    head = f"<Figure size {width:.0f}x{height:.0f} with {len(fig.axes)} Axes>"
    try:
        return "\n".join([head, *(_axes_text(i + 1, ax) for i, ax in enumerate(fig.axes[:6]))])
    except Exception:  # noqa: BLE001 - a description is a nicety; the figure itself must still show
        return head


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
