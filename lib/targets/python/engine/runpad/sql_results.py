"""How a SQL statement's result is shown and handed to Python: a table in the same data-resource JSON,
caps and full shape as a pandas table, a fixed-width text form, a DataFrame or a SqlTable (runpad.sql)."""

import datetime

from .caps import clip
from .tables import _column_name, _field_type, _json_value, _unique

TEXT_ROWS = 60
TEXT_COLUMNS = 20
TEXT_CELL_CHARS = 60


class _Result:
    """What one statement produced: rows with column names, or a count of changed rows."""

    def __init__(self, columns=None, rows=None, frame=None, changed=None, kinds=None):
        self.columns = columns
        self.rows = rows
        self.frame = frame
        self.changed = changed
        self.kinds = kinds

    @property
    def has_rows(self):
        return self.columns is not None


_pandas = None


def _pandas_module():
    """pandas if importable (imported once), else False."""
    global _pandas
    if _pandas is None:
        try:
            import pandas

            _pandas = pandas
        except ImportError:
            _pandas = False
    return _pandas


def _frame_table(frame, caps):
    """A DataFrame as data-resource JSON without its (meaningless) row index."""
    rows, columns = frame.shape
    shown = frame.iloc[: caps.table_rows, : caps.table_columns]
    names = _unique([_column_name(c) for c in shown.columns])
    fields = [{"name": name, "type": _field_type(dtype)} for name, dtype in zip(names, shown.dtypes)]
    data = [
        {name: _json_value(value) for name, value in zip(names, values)}
        for values in shown.itertuples(index=False, name=None)
    ]
    return {"schema": {"fields": fields, "primaryKey": []}, "data": data, "shape": [int(rows), int(columns)]}


def _value_type(values):
    kinds = {type(v) for v in values if v is not None}
    if not kinds:
        return "any"
    if kinds <= {bool}:
        return "boolean"
    if kinds <= {int}:
        return "integer"
    if kinds <= {int, float}:
        return "number"
    if kinds <= {str}:
        return "string"
    return "any"


def _plain_value(value):
    """Dates and timestamps as ISO text (JSON has neither)."""
    return value.isoformat() if isinstance(value, (datetime.date, datetime.time)) else value


def _rows_table(names, rows, caps):
    """Rows (tuples) as data-resource JSON, for when pandas is not available."""
    shown_names = names[: caps.table_columns]
    shown = [row[: caps.table_columns] for row in rows[: caps.table_rows]]
    fields = [
        {"name": name, "type": _value_type([row[i] for row in shown])} for i, name in enumerate(shown_names)
    ]
    data = [{name: _json_value(_plain_value(value)) for name, value in zip(shown_names, row)} for row in shown]
    return {"schema": {"fields": fields, "primaryKey": []}, "data": data, "shape": [len(rows), len(names)]}


def _cell_text(value):
    if value is None or (isinstance(value, float) and value != value):
        return "NULL"
    text = str(value).replace("\n", " ")
    return text if len(text) <= TEXT_CELL_CHARS else text[: TEXT_CELL_CHARS - 1] + "…"


def _plain_text(names, head, total_rows):
    """A fixed-width text table: the first TEXT_ROWS rows and TEXT_COLUMNS columns, then the size."""
    shown_names = names[:TEXT_COLUMNS]
    cells = [[_cell_text(v) for v in row[:TEXT_COLUMNS]] for row in head[:TEXT_ROWS]]
    widths = [max([len(n)] + [len(r[i]) for r in cells]) for i, n in enumerate(shown_names)]
    lines = ["  ".join(n.ljust(w) for n, w in zip(shown_names, widths)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    if total_rows > TEXT_ROWS or len(names) > TEXT_COLUMNS:
        lines.append("…")
    lines.append(f"[{total_rows:,} rows x {len(names):,} columns]")
    return "\n".join(lines)


def _show(result, namespace, caps):
    """The output bundle for a result with rows; binds `_sql` (a DataFrame, or a SqlTable
    without pandas: what `sql()` returns)."""
    pd = _pandas_module()
    if pd:
        frame = _as_python(result, result.kinds)
        namespace["_sql"] = frame
        table = _frame_table(frame, caps)
        head = list(frame.iloc[:TEXT_ROWS, :TEXT_COLUMNS].itertuples(index=False, name=None))
        text = _plain_text([_column_name(c) for c in frame.columns], head, len(frame))
    else:
        names = _unique([str(c) for c in result.columns])
        rows = result.rows
        namespace["_sql"] = SqlTable(names, rows)
        table = _rows_table(names, rows, caps)
        text = _plain_text(names, rows, len(rows))
    return {"application/vnd.dataresource+json": table, "text/plain": clip(text, caps.text_chars)}


def _changed_text(changed):
    if changed is None or changed < 0:
        return "OK"
    return f"OK, {changed:,} row{'' if changed == 1 else 's'} affected"


class SqlTable:
    """A query's result without pandas: `columns`, `rows` (tuples); iterating gives dicts."""

    def __init__(self, columns, rows):
        self.columns = list(columns)
        self.rows = list(rows)

    def __len__(self):
        return len(self.rows)

    def __iter__(self):
        return (dict(zip(self.columns, row)) for row in self.rows)

    def __getitem__(self, index):
        if isinstance(index, str):
            i = self.columns.index(index)
            return [row[i] for row in self.rows]
        return dict(zip(self.columns, self.rows[index]))

    def __eq__(self, other):
        return isinstance(other, SqlTable) and other.columns == self.columns and other.rows == self.rows

    def __repr__(self):
        return _plain_text(self.columns, self.rows[:TEXT_ROWS], len(self.rows))

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": repr(self)}


def _as_python(result, kinds=None):
    """A DataFrame when pandas is loaded, else a SqlTable."""
    pd = _pandas_module()
    names = _unique([str(c) for c in result.columns])
    if pd:
        frame = pd.DataFrame.from_records(result.rows, columns=names)
        for name, kind in zip(names, kinds or []):
            if kind in ("date", "datetime"):
                frame[name] = pd.to_datetime(frame[name])
        return frame
    return SqlTable(names, result.rows)
