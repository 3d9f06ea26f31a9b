"""The MIME types an output may carry (mimeBundleSchema in lib/runtime/protocol.ts) and the
normalisation of values into the shapes that schema accepts."""

import base64
import binascii
import json
import re

TEXT_PLAIN = "text/plain"
TEXT_MARKDOWN = "text/markdown"
IMAGE_PNG = "image/png"
IMAGE_JPEG = "image/jpeg"
TABLE = "application/vnd.dataresource+json"

TEXT_TYPES = (TEXT_PLAIN, TEXT_MARKDOWN)
IMAGE_TYPES = (IMAGE_PNG, IMAGE_JPEG)
ALLOWED = TEXT_TYPES + IMAGE_TYPES + (TABLE,)

_DATA_URL = re.compile(r"^data:[^,]*;base64,", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")


def image_base64(value):
    """Base64 text (no `data:` prefix, no line breaks) for image bytes or base64 text; None when
    the value is neither."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        return base64.b64encode(data).decode("ascii") if data else None
    if isinstance(value, str):
        text = _WHITESPACE.sub("", _DATA_URL.sub("", value.strip()))
        try:
            data = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            return None
        return base64.b64encode(data).decode("ascii") if data else None
    return None


def base64_size(text):
    """Decoded size of base64 text, without decoding it."""
    return len(text) * 3 // 4 - text[-2:].count("=")


def table_value(value):
    """value when it is a data resource the protocol accepts (and plain JSON), else None."""
    if not isinstance(value, dict):
        return None
    schema = value.get("schema")
    data = value.get("data")
    if not isinstance(schema, dict) or not isinstance(data, list):
        return None
    fields = schema.get("fields")
    if not isinstance(fields, list) or not all(
        isinstance(f, dict) and isinstance(f.get("name"), str) and isinstance(f.get("type"), str) for f in fields
    ):
        return None
    if "primaryKey" in schema and not (
        isinstance(schema["primaryKey"], list) and all(isinstance(k, str) for k in schema["primaryKey"])
    ):
        return None
    if not all(isinstance(row, dict) and all(isinstance(k, str) for k in row) for row in data):
        return None
    shape = value.get("shape")
    if shape is not None and not (
        isinstance(shape, (list, tuple))
        and len(shape) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape)
    ):
        return None
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError):
        return None
