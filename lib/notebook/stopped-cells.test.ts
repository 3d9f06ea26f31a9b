/**
 * A cell the person stopped in Runpad (Esc, Stop) or the time limit stopped is marked in every
 * export and skipped by default: Run All in Jupyter and `python3 script.py` go past it instead of
 * sitting in its loop, and the code is still there, one "#" away from running.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StoredMessage } from '@/lib/db/queries/messages.server';
import { failedRun } from '@/lib/runtime/failed-run';
import type { RunResult } from '@/lib/runtime/protocol';
import { toNotebook, type CodeCell } from './to-ipynb.server';
import { toScript } from './to-script.server';

const PYTHON = '/usr/bin/python3';
const tmp = mkdtempSync(path.join(tmpdir(), 'runpad-stopped-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Loops that never end, with quotes, non-Latin names, a carriage return and a form feed in them. */
const LOOP = 'name = "Zoë «данные» \'q\'"\r\nwhile True:\n    pass  # 永远\f\n';
const SLEEP = 'import time\ntime.sleep(10**6)\n';

const interrupted = failedRun({ kind: 'interrupted', state: 'kept' }, 12_900, [{ output_type: 'stream', name: 'stdout', text: 'tick\n' }]);
const timedOut = failedRun({ kind: 'time-limit', limitMs: 30_000, state: 'kept' }, 30_000);
const ok: RunResult = { status: 'ok', outputs: [{ output_type: 'stream', name: 'stdout', text: 'after\n' }], durationMs: 3 };

const part = (toolCallId: string, tool: string, code: string, output: RunResult) => ({ type: `tool-${tool}`, toolCallId, state: 'output-available', input: { code }, output });

function conversation(parts: ReturnType<typeof part>[]): StoredMessage[] {
  return [
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Loop, then print.' }] },
    { id: 'a1', role: 'assistant', parts },
  ] as unknown as StoredMessage[];
}

const messages = conversation([
  part('stopped_loop', 'python', LOOP, interrupted),
  part('timed_out', 'python', SLEEP, timedOut),
  part('stopped_sql', 'sql', 'SELECT * FROM range(10000000000) a, range(10000000000) b', interrupted),
  part('after', 'python', 'print("after")', ok),
]);

const codeCell = (cells: unknown[], id: string) => cells.find((cell) => (cell as CodeCell).id === id) as CodeCell;

describe('a stopped cell in the notebook', () => {
  it('is marked in its metadata, tagged, says so in a comment, and its code does not run', async () => {
    const notebook = await toNotebook({ title: 'Stopped', messages, resolveImage: async () => null });
    for (const [id, status] of [['stopped_loop', 'interrupted'], ['timed_out', 'timeout'], ['stopped_sql', 'interrupted']] as const) {
      const cell = codeCell(notebook.cells, id);
      expect(cell.metadata.runpad).toMatchObject({ status, skipped: true });
      expect(cell.metadata.tags).toEqual(expect.arrayContaining(['runpad-stopped', 'skip-execution']));
      const source = cell.source.join('');
      expect(source).toMatch(/^# Stopped in Runpad/);
      // Every line is a comment: nothing of it runs, whatever it held.
      for (const line of source.split(/\r\n|[\r\n\v\f\u0085\u2028\u2029]/)) expect(line).toMatch(/^#/);
      // Its outputs are still those it had.
      expect(cell.execution_count).not.toBeNull();
    }
    expect(codeCell(notebook.cells, 'stopped_loop').source.join('')).toContain('#     pass  # 永远');
    const after = codeCell(notebook.cells, 'after');
    expect(after.source.join('')).toBe('print("after")');
    expect(after.metadata.runpad).not.toHaveProperty('skipped');
    expect(after.metadata.tags).toBeUndefined();
  });

  it('runs top to bottom in Jupyter (Run All) past the stopped cells', () => {
    const file = path.join(tmp, 'stopped.ipynb');
    return toNotebook({ title: 'Stopped', messages: conversation([part('stopped_loop', 'python', LOOP, interrupted), part('timed_out', 'python', SLEEP, timedOut), part('after', 'python', 'print("after")', ok)]), resolveImage: async () => null }).then((notebook) => {
      writeFileSync(file, JSON.stringify(notebook));
      const driver = path.join(tmp, 'driver.py');
      // A per-cell timeout that a loop would reach, and no tag-based skipping: Jupyter's own Run All.
      writeFileSync(driver, 'import sys, nbformat\nfrom nbclient import NotebookClient\nnb = nbformat.read(sys.argv[1], as_version=4)\nfor c in nb.cells:\n    c.metadata.pop("tags", None)\nNotebookClient(nb, timeout=20, kernel_name="python3").execute()\nprint(nb.cells[-1].outputs[0].text, end="")\n');
      const out = execFileSync(PYTHON, [driver, file], { encoding: 'utf8', env: { ...process.env, PYDEVD_DISABLE_FILE_VALIDATION: '1' }, timeout: 120_000 });
      expect(out).toBe('after\n');
    });
  }, 130_000);
});

describe('a stopped cell in the script', () => {
  it('is marked and commented out, so python3 runs past it', () => {
    const script = toScript({ title: 'Stopped', messages: conversation([part('stopped_loop', 'python', LOOP, interrupted), part('after', 'python', 'print("after")', ok)]) });
    expect(script).toMatch(/# %%\n# Stopped in Runpad/);
    const file = path.join(tmp, 'stopped.py');
    writeFileSync(file, script);
    expect(execFileSync(PYTHON, [file], { encoding: 'utf8', timeout: 60_000 })).toBe('after\n');
  });

  it('is commented out in an R script too', () => {
    const script = toScript({ title: 'R', messages: conversation([part('stopped_r', 'r', 'repeat {\n  x <- "«ü»"\n}', interrupted), part('after_r', 'r', 'cat("after\\n")', ok)]) });
    expect(script).toContain('# Stopped in Runpad');
    expect(script).toContain('# repeat {');
    expect(script).not.toMatch(/^repeat \{/m);
    expect(script).toMatch(/^cat\("after\\n"\)$/m);
  });
});
