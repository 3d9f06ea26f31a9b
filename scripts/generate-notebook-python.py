"""Generates lib/targets/sql/notebook-python.generated.ts from the Python the worker runs.

An exported notebook's SQL cells work as the app's do: the data files' table names
(lib/targets/python/engine/runpad/dataset_tables.py) and the result table without pandas with its text form
(lib/targets/python/engine/runpad/sql_results.py) are the worker's own Python, taken from its source by this
script, renamed `_runpad_…` so they cannot collide with a notebook's own variables, and embedded
in the notebook's setup cell (lib/targets/sql/notebook.ts); the table files' extensions are
the worker's FORMATS. lib/targets/sql/notebook.test.ts fails when the generated file is not what
this script makes now.

Usage: python3 scripts/generate-notebook-python.py [--print]
"""

import ast
import builtins
import io
import json
import pathlib
import sys
import tokenize

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGET = "lib/targets/sql/notebook-python.generated.ts"

# What the notebook takes from each source, in this order, and the name each gets there.
TAKEN = {
    "lib/targets/python/engine/runpad/dataset_tables.py": {
        "FORMATS": "_RUNPAD_TABLE_FORMATS",
        "base_table_name": "_runpad_base_table_name",
        "unique_name": "_runpad_unique_name",
        "table_format": "_runpad_table_format",
        "table_names": "_runpad_table_names",
    },
    "lib/targets/python/engine/runpad/sql_results.py": {
        "TEXT_ROWS": "_RUNPAD_TEXT_ROWS",
        "TEXT_COLUMNS": "_RUNPAD_TEXT_COLUMNS",
        "TEXT_CELL_CHARS": "_RUNPAD_TEXT_CELL_CHARS",
        "_cell_text": "_runpad_cell_text",
        "_plain_text": "_runpad_plain_text",
        "SqlTable": "_RunpadSqlTable",
    },
}
# Standard modules the taken code may use, imported once under names of the notebook's own.
MODULES = {"os": "_runpad_os", "re": "_runpad_re", "datetime": "_runpad_datetime"}


def defined_name(node):
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return node.name
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    return None


def renamed(code, names):
    """`code` with every name token in `names` (not an attribute after a dot) renamed; strings and comments untouched."""
    lines = code.split("\n")
    edits = []
    previous = None
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type == tokenize.NAME and token.string in names and not (previous and previous.string == "."):
            edits.append((token.start, token.end, names[token.string]))
        if token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
            previous = token
    for (row, start), (_, end), name in reversed(edits):
        line = lines[row - 1]
        lines[row - 1] = line[:start] + name + line[end:]
    return "\n".join(lines)


def take(source, wanted):
    """The Python of the wanted top-level definitions of `source`, in the order asked, and the modules they use."""
    text = (ROOT / source).read_text(encoding="utf-8")
    module = ast.parse(text)
    top_level = {name for node in module.body for name in [defined_name(node)] if name}
    imported = {alias.asname or alias.name.split(".")[0] for node in module.body if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    nodes = {defined_name(node): node for node in module.body if defined_name(node) in wanted}
    missing = [name for name in wanted if name not in nodes]
    if missing:
        sys.exit(f"{source} no longer defines {', '.join(missing)}: change TAKEN in scripts/generate-notebook-python.py.")
    modules = set()
    # Everything the taken code uses from its module must be taken too: the notebook has no runpad package.
    for name, node in nodes.items():
        used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        modules |= used & set(MODULES) & imported
        outside = sorted((used & (top_level | imported)) - set(wanted) - set(MODULES) - set(dir(builtins)))
        if outside:
            sys.exit(f"{source}: {name} uses {', '.join(outside)}, which the notebook does not get; take it too (TAKEN) or keep {name} self-contained.")
    python = ""
    for name in wanted:
        separator = "" if not python else "\n" if isinstance(nodes[name], ast.Assign) and isinstance(nodes[[*wanted][[*wanted].index(name) - 1]], ast.Assign) else "\n\n\n"
        python += separator + ast.get_source_segment(text, nodes[name])
    return python, modules, nodes


def lines_of(python):
    return ",\n".join("  " + json.dumps(line, ensure_ascii=False) for line in python.split("\n"))


def generate():
    names = {old: new for wanted in TAKEN.values() for old, new in wanted.items()}
    parts = []
    modules = set()
    formats = None
    for source, wanted in TAKEN.items():
        python, used, nodes = take(source, wanted)
        modules |= used
        parts.append(python)
        if "FORMATS" in nodes:
            formats = ast.literal_eval(nodes["FORMATS"].value)
    imports = "import " + ", ".join(f"{module} as {MODULES[module]}" for module in sorted(modules))
    python = imports + "\n\n\n" + renamed("\n\n\n".join(parts), {**names, **MODULES})
    sources = " and ".join(TAKEN)
    return (
        f"// Generated by scripts/generate-notebook-python.py from {sources}; do not edit.\n"
        "// lib/targets/sql/notebook.test.ts fails when it is not what the script makes now.\n\n"
        "/** The extensions of the files the worker reads as tables (dataset_tables.py FORMATS). */\n"
        f"export const TABLE_FILE_EXTENSIONS: readonly string[] = {json.dumps(list(formats))};\n\n"
        "/** The worker's table naming and its result table without pandas with its text form, named `_runpad_…` for a notebook. */\n"
        f"export const WORKER_PYTHON = [\n{lines_of(python)},\n].join('\\n');\n"
    )


if __name__ == "__main__":
    output = generate()
    if "--print" in sys.argv:
        sys.stdout.write(output)
    else:
        (ROOT / TARGET).write_text(output, encoding="utf-8")
