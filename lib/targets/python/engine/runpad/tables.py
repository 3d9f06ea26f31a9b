"""pandas DataFrames and Series as table outputs (Frictionless "data resource" JSON).

Rows and columns are capped; the full shape is always reported. Values are made JSON-safe:
NaN/NaT/None become null, datetimes ISO strings, anything else exotic its str().
"""

import datetime
import math

from .caps import clip

INDEX_NAME = "index"


def _field_type(dtype):
    kind = getattr(dtype, "kind", "O")
    name = str(dtype)
    if name == "category":
        return "string"
    if kind == "b":
        return "boolean"
    if kind in "iu":
        return "integer"
    if kind in "fc":
        return "number"
    if kind == "M" or name.startswith("datetime64"):
        return "datetime"
    if kind == "m":
        return "duration"
    if kind in "OSU":
        return "string" if name in ("object", "string", "str") else "any"
    return "any"


def _json_value(value):
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, str):
        return value
    try:
        import pandas as pd

        if value is pd.NaT or (not isinstance(value, (list, tuple, dict)) and pd.isna(value)):
            return None
        if isinstance(value, pd.Timestamp):
            return value.isoformat()
        if isinstance(value, pd.Timedelta):
            return str(value)
    except (ImportError, TypeError, ValueError):  # without pandas: the fallback below
        pass
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    item = getattr(value, "item", None)  # numpy scalars
    if callable(item):
        try:
            return _json_value(item())
        except (TypeError, ValueError):
            pass
    return str(value)


def _column_name(column):
    if isinstance(column, tuple):
        return " / ".join(str(part) for part in column if str(part) != "")
    return str(column)


def _unique(names):
    seen = {}
    result = []
    for name in names:
        if name in seen:
            seen[name] += 1
            name = f"{name}.{seen[name]}"
        else:
            seen[name] = 0
        result.append(name)
    return result


def table_data(frame, caps):
    """The data-resource dict for a DataFrame, capped to caps.table_rows × caps.table_columns."""
    rows, columns = frame.shape
    shown = frame.iloc[: caps.table_rows, : caps.table_columns]
    index = shown.index
    index_names = [
        str(name) if name is not None else (INDEX_NAME if index.nlevels == 1 else f"level_{i}")
        for i, name in enumerate(index.names)
    ]
    column_names = [_column_name(c) for c in shown.columns]
    names = _unique(index_names + column_names)
    index_fields, value_fields = names[: len(index_names)], names[len(index_names):]

    fields = []
    for i, name in enumerate(index_fields):
        level = index.get_level_values(i)
        fields.append({"name": name, "type": _field_type(level.dtype)})
    for name, (_, dtype) in zip(value_fields, shown.dtypes.items()):
        fields.append({"name": name, "type": _field_type(dtype)})

    data = []
    for position in range(len(shown)):
        key = index[position]
        keys = key if isinstance(key, tuple) else (key,)
        row = {name: _json_value(value) for name, value in zip(index_fields, keys)}
        values = shown.iloc[position]
        for name, value in zip(value_fields, values.tolist()):
            row[name] = _json_value(value)
        data.append(row)
    return {
        "schema": {"fields": fields, "primaryKey": index_fields},
        "data": data,
        "shape": [int(rows), int(columns)],
    }


def pandas_bundle(obj, caps):
    import pandas as pd

    frame = obj.to_frame(name=obj.name if obj.name is not None else "value") if isinstance(obj, pd.Series) else obj
    with pd.option_context("display.max_rows", 60, "display.max_columns", 20, "display.width", 120):
        text = repr(obj)
    return {
        "application/vnd.dataresource+json": table_data(frame, caps),
        "text/plain": clip(text, caps.text_chars),
    }
