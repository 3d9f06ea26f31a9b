"""The page's Python interpreter (lib/targets/python/engine/runpad) run by CPython for Node tests
(lib/testing/real-engines.ts): one Kernel, SQL cells and sql() answered by native DuckDB in the
Node process through the bridge's protocol (lib/targets/sql/engine/bridge.ts). One JSON message a line:
runs come in on stdin; queries go out on stdout and their answers come back on stdin."""

import asyncio
import inspect
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "targets", "python", "engine"))
os.environ["MPLBACKEND"] = "module://runpad.mpl_backend"

from runpad import duckdb_bridge, sql  # noqa: E402
from runpad.kernel import Kernel  # noqa: E402

CAPS = {"streamChars": 10_000, "imagesPerRun": 20, "imageBytes": 5_000_000, "tableRows": 1_000, "tableColumns": 200, "textChars": 200_000}
channel_out = sys.stdout
channel_in = sys.stdin


def send(message):
    channel_out.write(json.dumps(message) + "\n")
    channel_out.flush()


def receive():
    line = channel_in.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)


class NodeDuckDB:
    """The bridge, answered by the Node process's DuckDB: files are read where they are."""

    version = "native"
    extensionRepository = ""

    def registerFile(self, path):
        return True

    def dropFile(self, path):
        return None

    def start(self, statement):
        send({"kind": "query", "sql": statement})
        answer = receive()
        if "error" in answer:
            raise Exception(answer["error"])
        return answer["result"]

    def poll(self):
        return None

    def cancel(self):
        return True

    async def importFile(self, path, fmt):
        return json.dumps({"ok": False, "message": f"{fmt} is read by DuckDB itself here"})


def main():
    data_dir, output_dir = sys.argv[1], sys.argv[2]
    duckdb_bridge.set_bridge(NodeDuckDB())
    sql.reset()
    emitted = []
    kernel = Kernel(emit=emitted.append, caps=CAPS, data_dir=data_dir, output_dir=output_dir)
    kernel.namespace["DATA"] = data_dir
    kernel.namespace["OUTPUT"] = output_dir
    while True:
        message = receive()
        emitted.clear()
        pending = kernel.run_sql(message["code"]) if message["target"] == "sql" else kernel.start(message["code"])
        result = asyncio.run(pending) if inspect.iscoroutine(pending) else pending
        send({"kind": "result", "status": result["status"], "outputs": list(emitted) + [json.loads(text) for text in result["outputs"]]})


main()
