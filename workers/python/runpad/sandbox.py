"""Makes Pyodide's own HTTP helpers fail with a clear message (defence in depth: the worker's
Content-Security-Policy is the boundary; see ARCHITECTURE.md, "Sandbox")."""

import sys

MESSAGE = "network is disabled in this sandbox"


def _disabled(*_args, **_kwargs):
    raise OSError(MESSAGE)


async def _disabled_async(*_args, **_kwargs):
    raise OSError(MESSAGE)


def disable_network():
    if sys.platform != "emscripten":
        return
    import pyodide.http as http

    http.pyfetch = _disabled_async
    http.open_url = _disabled
    for name in ("pyxhr",):
        if hasattr(http, name):
            setattr(http, name, _disabled)
