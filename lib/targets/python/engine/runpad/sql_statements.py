"""A SQL cell's text split into statements, and the small facts read off one (runpad.sql)."""

import re

_DOLLAR = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)?\$")


def split_statements(text, complete=None, brackets=False, dollar_quotes=False):
    """The statements of a script, in order, without empty ones (only whitespace or comments).

    Semicolons inside quotes ('…', "…", `…`, […] with brackets,
    $tag$…$tag$ with dollar_quotes) and comments (-- …, /* … */) do not end a statement. When
    `complete` is given (sqlite3.complete_statement), a semicolon ends a statement only if the
    text so far is complete, so a trigger's BEGIN … END body stays whole.
    """
    statements = []
    start = 0
    has_code = False
    i = 0
    n = len(text)
    while i < n:
        char = text[i]
        if char in "'\"`" or (brackets and char == "["):
            close = "]" if char == "[" else char
            i += 1
            while i < n:
                if text[i] == close:
                    if close != "]" and i + 1 < n and text[i + 1] == close:
                        i += 2
                        continue
                    break
                i += 1
            has_code = True
        elif char == "-" and text.startswith("--", i):
            end = text.find("\n", i)
            i = n - 1 if end < 0 else end
        elif char == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n - 1 if end < 0 else end + 1
        elif char == "$" and dollar_quotes and _DOLLAR.match(text, i):
            tag = _DOLLAR.match(text, i).group(0)
            end = text.find(tag, i + len(tag))
            i = n - 1 if end < 0 else end + len(tag) - 1
            has_code = True
        elif char == ";":
            if complete is None or complete(text[start : i + 1]):
                if has_code:
                    statements.append(text[start : i + 1].strip())
                start = i + 1
                has_code = False
        elif not char.isspace():
            has_code = True
        i += 1
    if has_code:
        statements.append(text[start:].strip())
    return statements


def _first_keyword(statement):
    code = re.sub(r"--[^\n]*|/\*.*?\*/", " ", statement, flags=re.S).lstrip(" \t\r\n(")
    match = re.match(r"[A-Za-z]+", code)
    return match.group(0).upper() if match else ""


def _snippet(statement, limit=200):
    one_line = " ".join(statement.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"
