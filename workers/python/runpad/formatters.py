"""Turns a Python object into a MIME bundle, following IPython's rich-display protocol.

Only the MIME types of the output protocol are kept. HTML (`_repr_html_`) is deliberately not
passed on: the page never renders HTML from Python; such objects fall back to text/plain.
A `_repr_*_` method that raises is ignored. Matplotlib figures are handled by mpl.py, pandas
objects by tables.py; neither library is imported here.
"""

import pprint
import sys

from . import mime
from .caps import clip

PRETTY_TYPES = (dict, list, tuple, set, frozenset)
PRETTY_WIDTH = 100
PRETTY_MAX_CHARS = 100_000


def _unwrap(value):
    """IPython lets a _repr_*_ method return (data, metadata)."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
        return value[0]
    return value


def _call(obj, name, **kwargs):
    # Looked up on the type, as IPython does: objects whose __getattr__ answers every name
    # (mocks, proxies) must not look like rich objects.
    if getattr(type(obj), name, None) is None:
        return None
    try:
        method = getattr(obj, name)
        if kwargs:
            try:
                return _unwrap(method(**kwargs))
            except TypeError:
                return _unwrap(method())
        return _unwrap(method())
    except Exception:  # noqa: BLE001 - a broken _repr_*_ must not break the run
        return None


def _is_instance_of(obj, module_prefix, class_names):
    for cls in type(obj).__mro__:
        if cls.__name__ in class_names and (cls.__module__ or "").startswith(module_prefix):
            return True
    return False


def is_figure(obj):
    return "matplotlib" in sys.modules and _is_instance_of(obj, "matplotlib", ("Figure",))


def is_pandas(obj):
    return "pandas" in sys.modules and _is_instance_of(obj, "pandas", ("DataFrame", "Series", "Styler"))


def safe_repr(obj, caps):
    """repr(obj) capped at textChars; long built-in containers are pretty-printed like IPython."""
    try:
        text = repr(obj)
        if type(obj) in PRETTY_TYPES and PRETTY_WIDTH < len(text) <= PRETTY_MAX_CHARS:
            text = pprint.pformat(obj, width=PRETTY_WIDTH, sort_dicts=False)
    except Exception as error:  # noqa: BLE001 - repr itself can fail on half-built objects
        text = f"<{type(obj).__name__} object (repr failed: {type(error).__name__}: {error})>"
    if not isinstance(text, str):
        text = f"<{type(obj).__name__} object>"
    return clip(text, caps.text_chars)


def filter_bundle(bundle, caps):
    """The allowed part of a MIME bundle, values normalised; invalid values are dropped."""
    result = {}
    if not isinstance(bundle, dict):
        return result
    for key, value in bundle.items():
        if key in mime.IMAGE_TYPES:
            encoded = mime.image_base64(value)
            if encoded:
                result[key] = encoded
        elif key in mime.TEXT_TYPES:
            if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
                value = "".join(value)  # nbformat's multi-line strings
            if isinstance(value, str):
                result[key] = clip(value, caps.text_chars)
        elif key == mime.TABLE:
            table = mime.table_value(value)
            if table is not None:
                result[key] = table
    return result


def _rich_bundle(obj, caps):
    bundle = filter_bundle(_call(obj, "_repr_mimebundle_", include=None, exclude=None), caps)
    for key, method in ((mime.IMAGE_PNG, "_repr_png_"), (mime.IMAGE_JPEG, "_repr_jpeg_"),
                        (mime.TEXT_MARKDOWN, "_repr_markdown_")):
        if key not in bundle:
            value = _call(obj, method)
            if value is not None:
                bundle.update(filter_bundle({key: value}, caps))
    return bundle


def to_bundle(obj, caps):
    """The MIME bundle for obj (figures excepted: see mpl.py); always has text/plain."""
    if is_pandas(obj):
        from .tables import pandas_bundle

        try:
            return pandas_bundle(obj, caps)
        except Exception:  # noqa: BLE001 - an exotic frame still shows as text
            pass
    bundle = _rich_bundle(obj, caps)
    if mime.TEXT_PLAIN not in bundle:
        bundle[mime.TEXT_PLAIN] = safe_repr(obj, caps)
    return bundle
