"""Turns a Python object into a MIME bundle, following IPython's rich-display protocol.

HTML (`_repr_html_`) is deliberately not passed on: the page never renders HTML from Python.
"""

import base64
import sys

from .caps import clip

ALLOWED = ("text/plain", "text/markdown", "image/png", "image/jpeg", "application/vnd.dataresource+json")


def _b64(value):
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, str):
        return value.strip()
    return None


def _call(obj, name):
    method = getattr(type(obj), name, None)
    if method is None:
        return None
    try:
        return getattr(obj, name)()
    except Exception:  # a broken _repr_*_ must not break the run; fall back to repr
        return None


def _is_instance_of(obj, module_prefix, class_names):
    for cls in type(obj).__mro__:
        if cls.__module__.startswith(module_prefix) and cls.__name__ in class_names:
            return True
    return False


def is_figure(obj):
    return "matplotlib" in sys.modules and _is_instance_of(obj, "matplotlib", ("Figure",))


def _is_pandas(obj):
    return "pandas" in sys.modules and _is_instance_of(obj, "pandas", ("DataFrame", "Series"))


def safe_repr(obj, caps):
    try:
        text = repr(obj)
    except Exception as error:  # repr itself can fail on half-built objects
        text = f"<{type(obj).__name__} object (repr failed: {type(error).__name__})>"
    return clip(text, caps.text_chars)


def to_bundle(obj, caps):
    """The MIME bundle for obj; always has text/plain."""
    if is_figure(obj):
        from .mpl import figure_bundle

        return figure_bundle(obj, caps)
    if _is_pandas(obj):
        from .tables import pandas_bundle

        return pandas_bundle(obj, caps)

    bundle = {}
    mimebundle = _call(obj, "_repr_mimebundle_")
    if isinstance(mimebundle, tuple):
        mimebundle = mimebundle[0]
    if isinstance(mimebundle, dict):
        for key, value in mimebundle.items():
            if key in ("image/png", "image/jpeg"):
                encoded = _b64(value)
                if encoded:
                    bundle[key] = encoded
            elif key in ("text/plain", "text/markdown") and isinstance(value, str):
                bundle[key] = clip(value, caps.text_chars)

    png = _call(obj, "_repr_png_")
    if png is not None and "image/png" not in bundle:
        encoded = _b64(png)
        if encoded:
            bundle["image/png"] = encoded
    jpeg = _call(obj, "_repr_jpeg_")
    if jpeg is not None and "image/jpeg" not in bundle:
        encoded = _b64(jpeg)
        if encoded:
            bundle["image/jpeg"] = encoded
    markdown = _call(obj, "_repr_markdown_")
    if isinstance(markdown, str) and "text/markdown" not in bundle:
        bundle["text/markdown"] = clip(markdown, caps.text_chars)

    if "text/plain" not in bundle:
        bundle["text/plain"] = safe_repr(obj, caps)
    return bundle
