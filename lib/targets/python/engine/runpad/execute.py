"""Runs a cell: top-level await, and the value of a final expression as in IPython."""

import ast
import inspect
import linecache

FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT


def register_source(filename, code):
    """Lets tracebacks show the cell's own lines."""
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)


def split_last_expression(code, filename):
    """(module, expression or None): the final expression is evaluated for its value,
    unless its line ends with ';' (IPython's way to suppress it)."""
    tree = ast.parse(code, filename=filename, mode="exec")
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        return tree, None
    last = tree.body[-1]
    lines = code.splitlines()
    end_line = lines[last.end_lineno - 1] if last.end_lineno and last.end_lineno <= len(lines) else ""
    if end_line[last.end_col_offset:].strip().startswith(";") or end_line.rstrip().endswith(";"):
        return tree, None
    tree.body.pop()
    return tree, ast.Expression(body=last.value)


async def _evaluate(compiled, namespace):
    result = eval(compiled, namespace)  # noqa: S307 - running the user's code is the point
    if compiled.co_flags & inspect.CO_COROUTINE:
        result = await result
    return result


async def run_cell(code, filename, namespace):
    """Executes code in namespace; returns (has_value, value) for the last expression."""
    register_source(filename, code)
    module, expression = split_last_expression(code, filename)
    await _evaluate(compile(module, filename, "exec", flags=FLAGS), namespace)
    if expression is None:
        return False, None
    value = await _evaluate(compile(expression, filename, "eval", flags=FLAGS), namespace)
    return True, value
