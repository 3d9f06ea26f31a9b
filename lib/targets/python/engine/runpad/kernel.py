"""The kernel the worker drives: one persistent namespace, one run at a time.

Outputs are in Jupyter's nbformat shape (see lib/runtime/protocol.ts). While the user's code runs
they go to `emit(dict)` as they happen; what comes after it (the cell's value, the rest of the
printed text, figures, files, the traceback) is returned with the run's status, as JSON, so the
page gets a run's end in one message. `run()` never raises: failures become `error` outputs.
"""

import builtins
import json
import os
import sys

from . import session as _session
from .caps import Caps
from .display import display, publish
from .errors import error_output
from .execute import run_cell
from .files import changed_files, snapshot
from .streams import StreamCapture, StreamWriter

BACKEND = "module://runpad.mpl_backend"


class Kernel:
    def __init__(self, emit, caps, data_dir="/data", output_dir="/output"):
        self._emit = emit
        self._caps = Caps.from_dict(caps)
        self._data_dir = data_dir
        self._output_dir = output_dir
        self._count = 0
        self.namespace = {"__name__": "__main__", "__builtins__": builtins}
        os.environ.setdefault("MPLBACKEND", BACKEND)
        builtins.display = display
        self._install_sql()
        for directory in (data_dir, output_dir):
            try:
                os.makedirs(directory, exist_ok=True)
            except OSError:
                pass  # not allowed outside the browser's virtual filesystem (tests)

    def start(self, code):
        """
        Runs a cell: its result at once when the code cannot await at top level, else a coroutine
        for the event loop. Code that cannot await never suspends, and in the browser's worker each
        pass through the event loop is a scheduled task: taking the result at once saves a run
        about 3 ms. (Only `asyncio.current_task()` tells the difference: None in such a cell.)
        """
        pending = self.run(code)
        if "await" in code or "async" in code or self._files_to_read(code):
            return pending
        try:
            pending.send(None)
        except StopIteration as done:
            return done.value
        pending.close()
        raise RuntimeError("a cell without await suspended")

    async def run(self, code):
        self._count += 1
        filename = f"<cell-{self._count}>"
        outbox = Outbox(self._emit)
        capture = StreamCapture(outbox, self._caps.stream_chars)
        run = _session.RunSession(outbox, self._caps, capture)
        _session.set_current(run)
        files_before = self._snapshot()
        saved_streams = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = StreamWriter(capture, "stdout"), StreamWriter(capture, "stderr")
        status = "ok"
        try:
            try:
                if self._files_to_read(code):
                    from .sql import read_files

                    await read_files(self._data_dir)
                has_value, value = await run_cell(code, filename, self.namespace)
            finally:
                outbox.keep()
            if has_value and value is not None:
                self.namespace["_"] = value
                publish("execute_result", value)
        except KeyboardInterrupt as error:
            status = "interrupted"
            self._error(run, error)
        except SystemExit as error:
            if error.code not in (None, 0):
                status = "error"
                self._error(run, error)
        except BaseException as error:  # noqa: BLE001 - every failure is the user's output
            status = "error"
            self._error(run, error)
        finally:
            sys.stdout, sys.stderr = saved_streams
            self._finish(run)
            for output in self._files_written(files_before):
                outbox(output)
            _session.set_current(None)
        return {"status": status, "outputs": outbox.kept}

    async def run_sql(self, code):
        """A SQL cell, in this interpreter: its tables and `_sql` are shared with Python."""
        from .sql import run_sql

        # A query shows nothing until it has finished: all of a SQL run travels with its reply.
        outbox = Outbox(self._emit)
        outbox.keep()
        capture = StreamCapture(outbox, self._caps.stream_chars)
        run = _session.RunSession(outbox, self._caps, capture)
        _session.set_current(run)
        saved_streams = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = StreamWriter(capture, "stdout"), StreamWriter(capture, "stderr")
        try:
            from .sql import read_files

            try:
                await read_files(self._data_dir)
            except KeyboardInterrupt as error:  # Stop while a file was read: the run ends there
                outbox(error_output(error))
                status = "interrupted"
            else:
                status = run_sql(code, self.namespace, outbox, self._caps, data_dir=self._data_dir)
        finally:
            sys.stdout, sys.stderr = saved_streams
            run.finish()
            capture.finish()
            _session.set_current(None)
        return {"status": status, "outputs": outbox.kept}

    def _files_to_read(self, code):
        """Python code that calls sql() while Parquet, JSON or Excel files wait for the kept readers."""
        from . import sql as sql_module

        return sql_module.mentions_sql(code) and sql_module.files_to_read(self._data_dir)

    def _install_sql(self):
        """`sql("…")` and `sql_table(name, data)` in the namespace: the SQL cells' DuckDB database."""
        from . import sql as sql_module

        data_dir = self._data_dir

        def sql(query):
            return sql_module.sql(query, data_dir=data_dir)

        sql.__doc__ = sql_module.sql.__doc__
        self.namespace["sql"] = sql
        self.namespace["sql_table"] = sql_module.sql_table

    def _error(self, run, error):
        run.capture.flush()
        run.emit(error_output(error))

    def _finish(self, run):
        try:
            from .mpl import flush_figures

            flush_figures()
        except Exception as error:  # noqa: BLE001 - a broken figure must not lose the rest
            self._error(run, error)
        run.finish()
        run.capture.finish()

    def _snapshot(self):
        try:
            return snapshot(self._output_dir)
        except OSError:
            return {}

    def _files_written(self, before):
        try:
            return changed_files(self._output_dir, before)
        except OSError:
            return []


class Outbox:
    """
    Where a run's outputs go. While the user's code runs, to the page as they happen (a long run
    shows its progress); once it has finished, they are kept as JSON and returned with the run's
    status. Each message from the worker is a task of its own on the page, and a frame drawn
    between a run's last output and its reply held the run's end back by that frame (~10 ms).
    """

    def __init__(self, emit):
        self._emit = emit
        self.kept = None

    def keep(self):
        if self.kept is None:
            self.kept = []

    def __call__(self, output):
        if self.kept is None:
            self._emit(output)
        else:
            # Encoded now, so an output that cannot be JSON fails where it was made, as emit does.
            self.kept.append(json.dumps(output, allow_nan=False))
