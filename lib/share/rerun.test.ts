import { describe, expect, it } from 'vitest';
import type { DataFile } from '@/lib/files/data-file';
import type { RunResult } from '@/lib/runtime/protocol';
import { filesReadBy, planRerun } from './rerun-plan.client';
import { rerunShare } from './rerun.client';
import { summaryText, type ShareRerunState } from './rerun-state.client';

const ok = (code: string, outputs: unknown[] = []) => ({ state: 'output-available', input: { code }, output: { status: 'ok', outputs, durationMs: 5 } });
const printed = (text: string) => [{ output_type: 'stream', name: 'stdout', text }];

/** A share: a kept file (on the owner's device only), an uploaded one, and cells that read one, the other or neither. */
const KEPT = 'Big Sales 2024.csv';
const files: DataFile[] = [
  { name: KEPT, sha256: 'a'.repeat(64), location: 'device' },
  { name: 'small.csv', sha256: 'b'.repeat(64), location: 'account', url: '/api/blobs/b' },
];
const messages = [
  {
    role: 'assistant',
    parts: [
      { type: 'tool-python', toolCallId: 'sum', ...ok('print(2 + 2)', printed('4\n')) },
      { type: 'tool-sql', toolCallId: 'kept-sql', ...ok('SELECT count(*) FROM big_sales_2024') },
      { type: 'tool-python', toolCallId: 'small', ...ok('import pandas as pd\npd.read_csv("/data/small.csv")') },
      { type: 'tool-python', toolCallId: 'kept-py', ...ok(`df = pd.read_csv("/data/${KEPT}")`) },
      { type: 'tool-graphviz', toolCallId: 'dot', ...ok('digraph { a -> b }') },
      { type: 'tool-r', toolCallId: 'listing', ...ok('list.files("/data")') },
      { type: 'tool-javascript', toolCallId: 'js', ...ok('1 + 1') },
    ],
  },
];

describe('which kept files a cell reads', () => {
  it.each([
    ['python', `open("/data/${KEPT}")`, [KEPT]],
    ['python', 'sql("SELECT * FROM Big_Sales_2024")', [KEPT]],
    ['sql', 'select * from BIG_SALES_2024 limit 3', [KEPT]],
    ['sql', 'SELECT table_name FROM information_schema.tables', [KEPT]],
    ['python', 'import os\nos.listdir("/data")', [KEPT]],
    ['python', 'for name in names:\n    pd.read_csv(f"/data/{name}")', [KEPT]],
    ['r', 'read.csv(file.path("/data", "x"))', [KEPT]],
    ['python', 'pd.read_csv("/data/small.csv")', []],
    ['python', 'big_sales_2024_total = 3', []],
    ['sql', 'SELECT 42 AS big_sales_2024_x', []],
    ['graphviz', `digraph { "/data/${KEPT}" }`, []],
    ['javascript', `"/data/${KEPT}".length`, []],
  ])('%s: %s', (target, code, expected) => {
    const step = planRerun([{ role: 'assistant', parts: [{ type: `tool-${target}`, toolCallId: 'x', ...ok(code) }] }], files)[0];
    expect(step.kind === 'run' ? step.reads : null).toEqual(expected);
    expect(filesReadBy(step.target, code, files).map((file) => file.name)).toEqual(expected);
  });
});

describe('a shared re-run needs only what each cell reads', () => {
  it('cells that do not read the kept file re-run; only those that do wait for it, and no run is given a file this browser lacks', async () => {
    const ran: Array<{ id: string; files: string[] }> = [];
    const states: ShareRerunState[] = [];
    await rerunShare(planRerun(messages, files), {
      files,
      hasKept: async () => false,
      run: async (step, given) => {
        ran.push({ id: step.toolCallId, files: given.map((file) => file.name) });
        return step.recorded;
      },
      restart: async () => undefined,
      compare: async (recorded: RunResult, result: RunResult) => (recorded === result ? { same: true } : { same: false, differences: ['changed'] }),
      aborted: () => false,
      engineFailed: () => false,
      publish: (state) => states.push(state),
    });
    expect(ran.map((run) => run.id)).toEqual(['sum', 'small', 'dot', 'js']);
    for (const run of ran) expect(run.files).toEqual(['small.csv']);
    const end = states.at(-1)!;
    expect(end.phase).toBe('finished');
    if (end.phase === 'idle') return;
    expect(Object.fromEntries([...end.cells].map(([id, cell]) => [id, cell.kind]))).toEqual({ sum: 'same', 'kept-sql': 'needs-file', small: 'same', 'kept-py': 'needs-file', dot: 'same', listing: 'needs-file', js: 'same' });
    expect(end.cells.get('kept-py')).toEqual({ kind: 'needs-file', names: [KEPT] });
    expect(summaryText(end)).toBe(`Re-ran 4 cells: 4 same, 0 different; 3 wait for ${KEPT}: drop your copy of it on one of them.`);
    // Never asked for up front: the cells that do not read it were marked while the re-run went on.
    const first = states.find((state) => state.phase !== 'idle' && state.cells.get('sum')?.kind === 'same');
    expect(first && first.phase !== 'idle' ? first.cells.get('kept-py')?.kind : null).toBe('pending');
  });

  it('once this browser holds the kept file, every cell runs, each given it when it reads it', async () => {
    const ran: Array<{ id: string; files: string[] }> = [];
    await rerunShare(planRerun(messages, files), {
      files,
      hasKept: async () => true,
      run: async (step, given) => {
        ran.push({ id: step.toolCallId, files: given.map((file) => file.name).sort() });
        return step.recorded;
      },
      restart: async () => undefined,
      compare: async () => ({ same: true }),
      aborted: () => false,
      engineFailed: () => false,
      publish: () => undefined,
    });
    expect(ran.map((run) => run.id)).toEqual(['sum', 'kept-sql', 'small', 'kept-py', 'dot', 'listing', 'js']);
    expect(ran.find((run) => run.id === 'kept-py')!.files).toEqual([KEPT, 'small.csv']);
  });
});
