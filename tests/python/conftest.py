import asyncio
import importlib.util
import inspect
import json
import os
import sys

import pytest

# The package's figure and table code is tested against the real libraries, never skipped: a
# machine without them fails here, naming what to install (.ci/run installs them).
REQUIRED = {"matplotlib": "python3-matplotlib", "pandas": "python3-pandas", "numpy": "python3-numpy"}
_missing = [name for name in REQUIRED if importlib.util.find_spec(name) is None]
if _missing:
    raise pytest.UsageError(
        "tests/python needs " + ", ".join(_missing) + " under " + sys.executable
        + ": install " + " ".join(REQUIRED[name] for name in _missing) + " (Debian) or pip install " + " ".join(_missing)
    )

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "lib", "targets", "python", "engine"))
os.environ["MPLBACKEND"] = "module://runpad.mpl_backend"

from runpad.kernel import Kernel  # noqa: E402

CAPS = {
    "streamChars": 10_000,
    "imagesPerRun": 20,
    "imageBytes": 5_000_000,
    "tableRows": 1_000,
    "tableColumns": 200,
    "textChars": 200_000,
}


class Harness:
    def __init__(self, tmp_path, **caps):
        self.outputs = []
        self.output_dir = tmp_path / "output"
        self.kernel = Kernel(
            emit=self._emit, caps={**CAPS, **caps}, data_dir=str(tmp_path / "data"), output_dir=str(self.output_dir)
        )

    def _emit(self, output):
        json.dumps(output, allow_nan=False)  # everything emitted must cross to JS as JSON
        self.outputs.append(output)

    def run(self, code):
        self.outputs = []
        # The worker's entry point: a result at once, or a coroutine when the cell awaits.
        result = self.kernel.start(code)
        if inspect.iscoroutine(result):
            result = asyncio.run(result)
        # What came after the user's code travels with the result, as JSON (see Outbox).
        self.streamed = list(self.outputs)
        self.outputs += [json.loads(text) for text in result["outputs"]]
        return result["status"], self.outputs

    def of_type(self, output_type):
        return [o for o in self.outputs if o["output_type"] == output_type]

    def stdout(self):
        return "".join(o["text"] for o in self.outputs if o["output_type"] == "stream" and o["name"] == "stdout")


@pytest.fixture
def kernel(tmp_path):
    return Harness(tmp_path)


@pytest.fixture
def make_kernel(tmp_path):
    return lambda **caps: Harness(tmp_path, **caps)
