/**
 * What SQL cells need to run outside Runpad, shared by the notebook and the script exporters: the
 * Python source of `_runpad_sql` (standard library only), the rule that names a data file's table
 * (in TypeScript and, identically, in that Python), and a safe Python string literal.
 *
 * Decision: an exported SQL cell is `_runpad_sql("<query>")`, the query written as an ordinary
 * double-quoted Python literal by `pythonStringLiteral` (every quote, backslash and control or
 * invisible character escaped, so no query text can end the literal early). `_runpad_sql`,
 * defined once in a setup cell, runs the query with `sqlite3` in an in-memory database into which
 * every CSV/TSV file of `./data/` (or else `/data/`) is loaded as a table named by `sqlTableName`,
 * with INTEGER/REAL/TEXT columns inferred from the values; it returns the rows as a list of dicts
 * that displays as a table. SQLite's dialect may differ from Runpad's engine in details.
 */

/** A Python `str` literal for `text` that reads back exactly as `text`, whatever it contains. */
export function pythonStringLiteral(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    const code = text.charCodeAt(i);
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      // A well-formed pair is one astral character: written as is (UTF-8 in the file).
      out += ch + text[i + 1];
      i += 1;
    } else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0xd800 && code <= 0xdfff) || code === 0x2028 || code === 0x2029 || code === 0xfeff) {
      // Control characters, lone surrogates and line/paragraph separators: escaped, so the
      // source stays one line for every tool that splits lines differently than Python does.
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Whether a data file is loaded as a table: CSV or TSV, not a hidden file. */
export function isTableFile(fileName: string): boolean {
  const lower = fileName.toLowerCase();
  return !fileName.startsWith('.') && (lower.endsWith('.csv') || lower.endsWith('.tsv'));
}

/**
 * The table a data file becomes: its name without the last extension, every character outside
 * `[A-Za-z0-9_]` replaced by `_`, lowercased; `t_` in front when that is empty, starts with a
 * digit or with `sqlite_` (reserved by SQLite). Replacing before lowercasing keeps the rule
 * independent of Unicode case tables (Python and JavaScript agree on it character for character).
 */
export function sqlTableName(fileName: string): string {
  const base = fileName
    .replace(/\.[^.]*$/u, '')
    .replace(/[^A-Za-z0-9_]/gu, '_')
    .toLowerCase();
  return base === '' || /^[0-9]/.test(base) || base.startsWith('sqlite_') ? `t_${base}` : base;
}

/**
 * Table names for the table files among `fileNames`, taken in code point order (Python's sort)
 * with `_2`, `_3`… on a clash: what `_runpad_sql` does with the files of a folder.
 */
export function sqlTableNames(fileNames: string[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const fileName of [...new Set(fileNames)].filter(isTableFile).sort(compareCodePoints)) {
    const base = sqlTableName(fileName);
    let name = base;
    for (let n = 2; taken.has(name); n += 1) name = `${base}_${n}`;
    taken.add(name);
    names.set(fileName, name);
  }
  return names;
}

function compareCodePoints(a: string, b: string): number {
  const left = Array.from(a, (ch) => ch.codePointAt(0) ?? 0);
  const right = Array.from(b, (ch) => ch.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) if (left[i] !== right[i]) return left[i] - right[i];
  return left.length - right.length;
}

/** The Python expression an SQL cell becomes. */
export function sqlCellSource(query: string): string {
  return `_runpad_sql(${pythonStringLiteral(query)})`;
}

/** Rows shown by the table display of `_runpad_sql`'s result (all rows stay in the list). */
export const SQL_ROWS_SHOWN = 50;

/**
 * Defines `_runpad_sql(query)`. Names start with `_runpad_` so they do not collide with the
 * conversation's own variables; imports happen inside the functions for the same reason.
 */
export const SQL_SETUP_SOURCE = String.raw`# Runpad's SQL cells outside Runpad: _runpad_sql(query) runs the query with the standard
# library's sqlite3 in an in-memory database holding every CSV/TSV file of ./data/ (or else
# /data/) as a table named after its file (sales-2024.csv -> sales_2024). Runpad's own SQL
# engine may differ from SQLite in dialect details.
_runpad_sql_db = None


def _runpad_sql_table_names(file_names):
    """CSV/TSV file name -> table name: non-[A-Za-z0-9_] characters -> _, lowercased, t_ before a digit."""
    import re
    names, taken = {}, set()
    for file_name in sorted(set(file_names)):
        if file_name.startswith(".") or file_name.lower()[-4:] not in (".csv", ".tsv"):
            continue
        base = re.sub(r"[^A-Za-z0-9_]", "_", re.sub(r"\.[^.]*\Z", "", file_name)).lower()
        if base == "" or base[0] in "0123456789" or base.startswith("sqlite_"):
            base = "t_" + base
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name)
        names[file_name] = name
    return names


def _runpad_sql_affinity(values):
    """INTEGER, REAL or TEXT: what every non-empty value of a column reads as."""
    import re
    present = [value.strip() for value in values if value.strip() != ""]
    if not present or any(re.match(r"[-+]?0[0-9]", value) for value in present):
        return "TEXT"  # "02134" is a code, not a number
    if all(re.fullmatch(r"[-+]?[0-9]{1,18}", value) for value in present):
        return "INTEGER"
    if all(re.fullmatch(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?", value) for value in present):
        return "REAL"
    return "TEXT"


def _runpad_sql_connect():
    import csv, os, sqlite3, sys
    db = sqlite3.connect(":memory:")
    folder = next((path for path in ("data", "/data") if os.path.isdir(path)), None)
    if folder is None:
        return db
    files = [name for name in os.listdir(folder) if os.path.isfile(os.path.join(folder, name))]
    quote = lambda name: '"' + name.replace('"', '""') + '"'
    for file_name, table in _runpad_sql_table_names(files).items():
        try:
            with open(os.path.join(folder, file_name), newline="", encoding="utf-8-sig", errors="replace") as file:
                rows = [row for row in csv.reader(file, delimiter="\t" if file_name.lower().endswith(".tsv") else ",") if row]
            if not rows:
                continue
            columns, seen = [], set()
            for i, column in enumerate(rows[0]):
                column = column.strip() or f"column_{i + 1}"
                name, n = column, 1
                while name.lower() in seen:  # SQLite compares column names case-insensitively
                    n += 1
                    name = f"{column}_{n}"
                seen.add(name.lower())
                columns.append(name)
            body = [(row + [""] * len(columns))[: len(columns)] for row in rows[1:]]
            affinities = [_runpad_sql_affinity([row[i] for row in body]) for i in range(len(columns))]
            convert = {"INTEGER": lambda v: int(v.strip()), "REAL": lambda v: float(v.strip()), "TEXT": str}
            db.execute(f"CREATE TABLE {quote(table)} ({', '.join(f'{quote(c)} {a}' for c, a in zip(columns, affinities))})")
            db.executemany(
                f"INSERT INTO {quote(table)} VALUES ({', '.join('?' * len(columns))})",
                [tuple(None if v.strip() == "" else convert[a](v) for v, a in zip(row, affinities)) for row in body],
            )
        except (OSError, csv.Error, sqlite3.Error, ValueError) as error:
            print(f"_runpad_sql: {file_name} was not loaded: {error}", file=sys.stderr)
    db.commit()
    return db


def _runpad_sql_statements(query):
    """The statements of a query, split where sqlite3 says a statement is complete."""
    import sqlite3
    statements, current = [], ""
    pieces = query.split(";")
    for i, piece in enumerate(pieces):
        last = i == len(pieces) - 1
        current += piece if last else piece + ";"
        if last or sqlite3.complete_statement(current):
            if current.strip():
                statements.append(current)
            current = ""
    return statements


class _RunpadRows(list):
    """A query's rows as dicts (column -> value), displayed as a table."""

    def __init__(self, columns, tuples):
        super().__init__(dict(zip(columns, row)) for row in tuples)
        self.columns = columns
        self.tuples = tuples

    def _shown(self):
        return [["NULL" if v is None else str(v) for v in row] for row in self.tuples[:${SQL_ROWS_SHOWN}]]

    def _footer(self):
        more = len(self.tuples) - len(self._shown())
        count = f"({len(self.tuples)} row{'' if len(self.tuples) == 1 else 's'})"
        return f"... {more} more rows {count}" if more else count

    def __repr__(self):
        if not self.columns:
            return "(no rows)"
        shown = self._shown()
        widths = [max([len(c)] + [len(row[i]) for row in shown]) for i, c in enumerate(self.columns)]
        numeric = [all(isinstance(row[i], (int, float)) and not isinstance(row[i], bool) for row in self.tuples[: len(shown)] if row[i] is not None) for i in range(len(self.columns))]
        lines = [" | ".join(c.ljust(w) for c, w in zip(self.columns, widths)).rstrip(), "-+-".join("-" * w for w in widths)]
        for row in shown:
            lines.append(" | ".join(v.rjust(w) if n else v.ljust(w) for v, w, n in zip(row, widths, numeric)).rstrip())
        lines.append(self._footer())
        return "\n".join(lines)

    def _repr_html_(self):
        import html
        if not self.columns:
            return "<p>(no rows)</p>"
        head = "".join(f"<th>{html.escape(c)}</th>" for c in self.columns)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in row) + "</tr>" for row in self._shown())
        return f'<table class="dataframe"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table><p>{html.escape(self._footer())}</p>'


def _runpad_sql(query):
    """Runs the query's statements in order; returns the rows of the last one that returned rows."""
    global _runpad_sql_db
    if _runpad_sql_db is None:
        _runpad_sql_db = _runpad_sql_connect()
    result = _RunpadRows([], [])
    for statement in _runpad_sql_statements(query):
        cursor = _runpad_sql_db.execute(statement)
        if cursor.description is not None:
            result = _RunpadRows([d[0] for d in cursor.description], cursor.fetchall())
    _runpad_sql_db.commit()
    return result
`;
