"""The network patch of Pyodide's HTTP helpers, applied when the module is imported (runpad.sandbox).

CPython has no pyodide.http: these tests patch a module of their own making through the same
mechanism, and check it holds for a first import, an import that happened before, and a reload."""

import importlib
import sys

import pytest

from runpad import sandbox


@pytest.fixture
def http_like(tmp_path, monkeypatch):
    package = tmp_path / "fakehttp"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from . import pyxhr\n"
        "async def pyfetch(url):\n    return 'fetched ' + url\n"
        "def open_url(url):\n    return 'opened ' + url\n"
    )
    (package / "pyxhr.py").write_text("def send():\n    return 'sent'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("fakehttp", "fakehttp.pyxhr"):
        sys.modules.pop(name, None)
    saved = list(sys.meta_path)
    yield "fakehttp"
    sys.meta_path[:] = saved
    for name in ("fakehttp", "fakehttp.pyxhr"):
        sys.modules.pop(name, None)


def assert_disabled(module):
    with pytest.raises(OSError, match=sandbox.MESSAGE):
        module.open_url("https://example.com")
    with pytest.raises(OSError, match=sandbox.MESSAGE):
        module.pyxhr()
    coroutine = module.pyfetch("https://example.com")
    with pytest.raises(OSError, match=sandbox.MESSAGE):
        coroutine.send(None)


def test_a_module_imported_later_is_patched_as_it_is_imported(http_like):
    sandbox.patch_on_import(http_like, sandbox.disable_http_helpers)
    assert http_like not in sys.modules, "installing the patch must not import the module"
    assert_disabled(importlib.import_module(http_like))
    from fakehttp import open_url  # noqa: PLC0415 (a name taken from the module is the patched one)

    with pytest.raises(OSError):
        open_url("https://example.com")


def test_a_module_imported_before_is_patched_at_once(http_like):
    module = importlib.import_module(http_like)
    assert module.open_url("x") == "opened x"
    sandbox.patch_on_import(http_like, sandbox.disable_http_helpers)
    assert_disabled(module)


def test_a_reloaded_module_is_patched_again(http_like):
    sandbox.patch_on_import(http_like, sandbox.disable_http_helpers)
    module = importlib.reload(importlib.import_module(http_like))
    assert_disabled(module)


def test_other_modules_are_imported_untouched(http_like):
    sandbox.patch_on_import(http_like, sandbox.disable_http_helpers)
    import json  # noqa: PLC0415

    assert importlib.reload(json).dumps([1]) == "[1]"
