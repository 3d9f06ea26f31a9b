"""Makes Pyodide's own HTTP helpers fail with a clear message (defence in depth: the worker's
Content-Security-Policy is the boundary; see ARCHITECTURE.md, "Sandbox").

The helpers are patched as `pyodide.http` is imported, not by importing it up front: the import
costs ~60 ms of a first visit's start, and most runs never touch it."""

import importlib.abc
import sys
from collections.abc import Callable
from types import ModuleType

MESSAGE = "network is disabled in this sandbox"


def _disabled(*_args, **_kwargs):
    raise OSError(MESSAGE)


async def _disabled_async(*_args, **_kwargs):
    raise OSError(MESSAGE)


def disable_http_helpers(http: ModuleType) -> None:
    http.pyfetch = _disabled_async
    http.open_url = _disabled
    for name in ("pyxhr",):
        if hasattr(http, name):
            setattr(http, name, _disabled)


class _PatchingLoader(importlib.abc.Loader):
    """Executes the module with its own loader, then patches it before the import returns."""

    def __init__(self, loader: importlib.abc.Loader, patch: Callable[[ModuleType], None]):
        self._loader = loader
        self._patch = patch

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        self._patch(module)


class _PatchOnImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: asks the finders after it, and wraps the loader of one module."""

    def __init__(self, name: str, patch: Callable[[ModuleType], None]):
        self.name = name
        self.patch = patch

    def find_spec(self, fullname, path, target=None):
        if fullname != self.name:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _PatchingLoader(spec.loader, self.patch)
                return spec
        return None


def patch_on_import(name: str, patch: Callable[[ModuleType], None]) -> None:
    """Patches module `name` now if it is imported, and whenever it is imported (or reloaded) later."""
    if not any(isinstance(f, _PatchOnImport) and f.name == name for f in sys.meta_path):
        sys.meta_path.insert(0, _PatchOnImport(name, patch))
    if name in sys.modules:
        patch(sys.modules[name])


def disable_network():
    if sys.platform != "emscripten":
        return
    patch_on_import("pyodide.http", disable_http_helpers)
