#!/usr/bin/env bash
# Runs the Python package's tests under CPython with Debian's matplotlib, pandas and numpy
# (installed by .ci/run). PYTHON overrides the interpreter.
set -euo pipefail
PYTHON="${PYTHON:-/usr/bin/python3}"
exec "$PYTHON" -m pytest tests/python -q "$@"
