"""Runs a cell: top-level await, and the value of a final expression as in IPython."""

import ast
import inspect
import linecache

FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT


def register_source(filename, code):
    """Lets tracebacks show the cell's own lines (kept for later runs, whose tracebacks can pass
    through functions this cell defined)."""
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)


def _ends_with_semicolon(code, node):
    """True when the text after the expression, on its last line, starts with ';' (IPython's way
    to suppress the value). ast offsets are UTF-8 byte offsets."""
    lines = code.splitlines()
    if not node.end_lineno or node.end_lineno > len(lines):
        return False
    rest = lines[node.end_lineno - 1].encode("utf-8")[node.end_col_offset:].decode("utf-8", "replace")
    return rest.lstrip().startswith(";")


def split_last_expression(code, filename):
    """(module, expression or None): a final expression statement is taken out of the module to be
    evaluated for its value, unless it is followed by ';'."""
    tree = ast.parse(code, filename=filename, mode="exec")
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        return tree, None
    last = tree.body[-1]
    if _ends_with_semicolon(code, last):
        return tree, None
    tree.body.pop()
    return tree, ast.Expression(body=last.value)


async def _evaluate(compiled, namespace):
    result = eval(compiled, namespace)  # noqa: S307 - running the user's code is the point
    if compiled.co_flags & inspect.CO_COROUTINE:
        result = await result
    return result


def _compile(tree, filename, mode):
    return compile(tree, filename, mode, flags=FLAGS, dont_inherit=True)


async def run_cell(code, filename, namespace):
    """Executes code in namespace; returns (has_value, value) for the last expression."""
    register_source(filename, code)
    module, expression = split_last_expression(code, filename)
    # Compile both parts before running either, so a compile error runs nothing.
    body = _compile(module, filename, "exec")
    last = _compile(expression, filename, "eval") if expression is not None else None
    await _evaluate(body, namespace)
    if last is None:
        return False, None
    return True, await _evaluate(last, namespace)
