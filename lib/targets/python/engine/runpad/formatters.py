"""Turns a Python object into a MIME bundle, following IPython's rich-display protocol.

HTML (`_repr_html_`) is deliberately not passed on: the page never renders HTML from Python.
Vega-Lite specs (`application/vnd.vegalite.v5+json`, `…v6+json`) are: the page renders them
itself, as data, with no network and no code of the spec's making. So is Graphviz DOT source
(`text/vnd.graphviz`, e.g. from networkx): the page draws it with the same renderer as the
`graphviz` tool. The allowed types are in mime_types.py (a checked copy of the page's list).
"""

import base64
import datetime
import json
import math
import sys

from .caps import clip
from .mime_types import DOT_TYPE, FROM_PYTHON, IMAGE_TYPES, TEXT_TYPES, VEGALITE_TYPES

# Characters of one spec as compact JSON; lib/runtime/protocol.ts (VEGALITE_SPEC_MAX_BYTES) has the same.
VEGALITE_MAX_CHARS = 5_000_000
_JSON_DEPTH = 100


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

    mimebundle = _call(obj, "_repr_mimebundle_")
    if isinstance(mimebundle, tuple):
        mimebundle = mimebundle[0]
    bundle = from_mimebundle(mimebundle, caps) if isinstance(mimebundle, dict) else {}

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


def from_mimebundle(mimebundle, caps):
    """The allowed part of a MIME bundle a `_repr_mimebundle_` or `display(..., raw=True)` gave."""
    bundle = {}
    for key, value in mimebundle.items():
        if key in IMAGE_TYPES:
            encoded = _b64(value)
            if encoded:
                bundle[key] = encoded
        elif key in TEXT_TYPES and isinstance(value, str):
            bundle[key] = clip(value, caps.text_chars)
    _add_dot(bundle, mimebundle, caps)
    _add_vegalite(bundle, mimebundle)
    return bundle


def _add_dot(bundle, mimebundle, caps):
    """Passes DOT source on whole (a clipped graph would not parse), or says why it was not."""
    dot = mimebundle.get(DOT_TYPE)
    if not isinstance(dot, str):
        return
    if len(dot) > caps.text_chars:
        bundle["text/plain"] = f"<Graphviz diagram not drawn: its DOT source is {len(dot):,} characters, over the {caps.text_chars:,} limit>"
        return
    bundle[DOT_TYPE] = dot
    bundle.setdefault("text/plain", "<Graphviz diagram>")


def raw_bundle(data, caps):
    """IPython's `display(data, raw=True)`: data is already a MIME bundle (a dict)."""
    bundle = from_mimebundle(data, caps)
    if "text/plain" not in bundle:
        ignored = [str(key) for key in data if key not in FROM_PYTHON]
        if ignored and not bundle:
            bundle["text/plain"] = f"<display data of type {', '.join(ignored)}, not shown here>"
        else:
            bundle["text/plain"] = "<display data>"
    return bundle


def _add_vegalite(bundle, mimebundle):
    """Passes the first Vega-Lite spec on (as JSON-safe data), with a text/plain fallback."""
    for key in VEGALITE_TYPES:
        if key not in mimebundle:
            continue
        spec = mimebundle[key]
        if isinstance(spec, str):
            try:
                spec = json.loads(spec)
            except ValueError:
                continue
        if not isinstance(spec, dict):
            continue
        try:
            spec = _jsonable(spec, 0)
            size = len(json.dumps(spec, separators=(",", ":"), ensure_ascii=False, allow_nan=False))
        except (ValueError, TypeError, RecursionError):
            bundle["text/plain"] = "<Vega-Lite chart not shown: its spec could not be turned into JSON>"
            return
        if size > VEGALITE_MAX_CHARS:
            bundle["text/plain"] = (
                f"<Vega-Lite chart not shown: its spec is {size:,} characters of JSON, over the "
                f"{VEGALITE_MAX_CHARS:,} limit; aggregate or sample the data first>"
            )
            return
        bundle[key] = spec
        bundle.setdefault("text/plain", _chart_text(spec))
        return


def _jsonable(value, depth):
    """A copy of value that JSON can carry: NaN and infinities become null, numpy scalars numbers,
    dates ISO strings, anything else its str()."""
    if depth > _JSON_DEPTH:
        raise ValueError("nested too deeply")
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(key): _jsonable(item, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(item, depth + 1) for item in value]
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if type(value).__module__ == "numpy":  # numpy scalars and arrays
        try:
            return _jsonable(value.tolist(), depth + 1)
        except (AttributeError, TypeError):
            pass
    return str(value)


def _chart_text(spec):
    mark = spec.get("mark")
    if isinstance(mark, dict):
        mark = mark.get("type")
    if isinstance(mark, str):
        return f"<Vega-Lite chart: {mark}>"
    for kind in ("layer", "hconcat", "vconcat", "concat", "facet", "repeat"):
        if kind in spec:
            return f"<Vega-Lite chart: {kind}>"
    return "<Vega-Lite chart>"
