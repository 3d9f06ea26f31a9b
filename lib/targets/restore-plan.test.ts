/**
 * Tests for the restore plan (which stored runs rebuild the interpreter state) and for the
 * comparison of a replay's stdout with the recorded one.
 */
import { describe, expect, it } from 'vitest';
import type { RunResult } from '@/lib/runtime/protocol';
import { compareStdout, dependsOnFor, planRestore, shouldAutoRestore, type RestorePlan } from './restore-plan.client';

type Message = { id: string; role: string; parts: unknown[] };

function result(overrides: Partial<RunResult> = {}): RunResult {
  return { status: 'ok', outputs: [], durationMs: 100, ...overrides };
}

function run(toolCallId: string, code: string, output: RunResult = result(), type = 'tool-python'): unknown {
  return { type, toolCallId, state: 'output-available', input: { code }, output };
}

/** A run that has not reported a result yet. */
function pending(toolCallId: string, code: string): unknown {
  return { type: 'tool-python', toolCallId, state: 'input-available', input: { code } };
}

function assistant(id: string, ...parts: unknown[]): Message {
  return { id, role: 'assistant', parts: [{ type: 'step-start' }, ...parts, { type: 'text', text: 'Done.' }] };
}

const ids = (plan: RestorePlan) => plan.steps.map((step) => step.toolCallId);

describe('planRestore', () => {
  it('replays SQL runs as SQL steps, in order with Python, so a table made by SQL comes back', () => {
    const messages: Message[] = [
      assistant('a1', run('s1', 'CREATE TABLE totals AS SELECT region, SUM(amount) AS total FROM sales GROUP BY region', result({ durationMs: 20 }), 'tool-sql')),
      assistant('a2', run('p1', 'print(len(_sql))'), run('g1', 'digraph { a -> b }', result(), 'tool-graphviz'), run('s2', 'SELECT * FROM totals', result({ durationMs: 5 }), 'tool-sql')),
    ];
    const plan = planRestore(messages);
    expect(plan.steps.map((step) => [step.toolCallId, step.target, step.code])).toEqual([
      ['s1', 'sql', 'CREATE TABLE totals AS SELECT region, SUM(amount) AS total FROM sales GROUP BY region'],
      ['p1', 'python', 'print(len(_sql))'],
      ['s2', 'sql', 'SELECT * FROM totals'],
    ]);
    expect(plan.skipped).toEqual([{ toolCallId: 'g1', reason: 'stateless' }]);
    expect(plan.totalRecordedMs).toBe(125);
    // Before the second SQL run, it depends on the first SQL run and the Python run.
    expect(ids(planRestore(messages, { beforeToolCallId: 's2' }))).toEqual(['s1', 'p1']);
  });

  it('replays R runs in stored order with Python’s; a run depends only on the earlier runs of its own engine', () => {
    const messages: Message[] = [
      assistant('a1', run('p1', 'x = 1'), run('r1', 'kept <- 41', result(), 'tool-r'), run('s1', 'CREATE TABLE t AS SELECT 1', result(), 'tool-sql')),
      assistant('a2', run('r2', 'cat(kept + 1)', result(), 'tool-r'), run('p2', 'print(x)')),
    ];
    expect(planRestore(messages).steps.map((step) => [step.toolCallId, step.target])).toEqual([['p1', 'python'], ['r1', 'r'], ['s1', 'sql'], ['r2', 'r'], ['p2', 'python']]);
    const beforeP2 = planRestore(messages, { beforeToolCallId: 'p2' });
    expect(dependsOnFor(beforeP2, 'pyodide')).toEqual(['p1', 's1']);
    expect(dependsOnFor(beforeP2, 'webr')).toEqual(['r1', 'r2']);
  });

  it('clears Python and SQL steps alike when a SQL run replaced the interpreter they share', () => {
    const messages: Message[] = [assistant('a1', run('p1', 'x = 1'), run('s1', 'SELECT 1', result({ status: 'timeout', restarted: true }), 'tool-sql'), run('p2', 'y = 2'))];
    const plan = planRestore(messages);
    expect(ids(plan)).toEqual(['p2']);
    expect(plan.skipped).toEqual([{ toolCallId: 's1', reason: 'failed' }]);
  });

  it('replays successful runs in message order, then part order', () => {
    const messages: Message[] = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Load it' }] },
      assistant('a1', run('c1', 'import pandas as pd'), run('c2', 'df = pd.read_csv("/data/x.csv")')),
      { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And sum it' }] },
      assistant('a2', run('c3', 'SELECT 1', result({ durationMs: 5 }), 'tool-sql'), run('c4', 'df.sum()', result({ durationMs: 250 }))),
    ];
    const plan = planRestore(messages);
    expect(plan.steps).toEqual([
      { toolCallId: 'c1', messageId: 'a1', target: 'python', code: 'import pandas as pd', recordedDurationMs: 100, recordedStdout: '', edited: false },
      { toolCallId: 'c2', messageId: 'a1', target: 'python', code: 'df = pd.read_csv("/data/x.csv")', recordedDurationMs: 100, recordedStdout: '', edited: false },
      { toolCallId: 'c3', messageId: 'a2', target: 'sql', code: 'SELECT 1', recordedDurationMs: 5, recordedStdout: '', edited: false },
      { toolCallId: 'c4', messageId: 'a2', target: 'python', code: 'df.sum()', recordedDurationMs: 250, recordedStdout: '', edited: false },
    ]);
    expect(plan.skipped).toEqual([]);
    expect(plan.totalRecordedMs).toBe(455);
  });

  it('returns an empty plan for a conversation without runs', () => {
    expect(planRestore([])).toEqual({ steps: [], skipped: [], totalRecordedMs: 0 });
    expect(planRestore([{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }])).toEqual({ steps: [], skipped: [], totalRecordedMs: 0 });
  });

  it('replays the code that ran, marking user edits but not reruns', () => {
    const plan = planRestore([
      assistant('a1', run('c1', 'x = 2  # the user\'s version', result({ userRun: 'edited' })), run('c2', 'y = x', result({ userRun: 'rerun' }))),
    ]);
    expect(plan.steps.map((step) => [step.code, step.edited])).toEqual([
      ['x = 2  # the user\'s version', true],
      ['y = x', false],
    ]);
  });

  it('records the printed stdout only, in order', () => {
    const outputs: RunResult['outputs'] = [
      { output_type: 'stream', name: 'stdout', text: 'a\n' },
      { output_type: 'stream', name: 'stderr', text: 'warning\n' },
      { output_type: 'execute_result', data: { 'text/plain': '42' } },
      { output_type: 'stream', name: 'stdout', text: 'b\n' },
    ];
    expect(planRestore([assistant('a1', run('c1', 'print("a")', result({ outputs })))]).steps[0].recordedStdout).toBe('a\nb\n');
  });

  it('skips failed runs', () => {
    const plan = planRestore([
      assistant(
        'a1',
        run('ok1', 'x = 1'),
        run('err', '1/0', result({ status: 'error' })),
        run('slow', 'while True: pass', result({ status: 'timeout' })),
        run('stop', 'input()', result({ status: 'interrupted' })),
        run('ok2', 'y = 2'),
      ),
    ]);
    expect(ids(plan)).toEqual(['ok1', 'ok2']);
    expect(plan.skipped).toEqual([
      { toolCallId: 'err', reason: 'failed' },
      { toolCallId: 'slow', reason: 'failed' },
      { toolCallId: 'stop', reason: 'failed' },
    ]);
  });

  it('skips runs without output and graphviz runs', () => {
    const plan = planRestore([
      assistant(
        'a1',
        pending('pending', 'x = 1'),
        { type: 'tool-python', toolCallId: 'denied', state: 'output-error', input: { code: 'x' }, errorText: 'no' },
        { type: 'tool-python', toolCallId: 'partial', state: 'output-available', input: { code: 'x' }, output: result(), preliminary: true },
        run('graph', 'digraph { a -> b }', result(), 'tool-graphviz'),
        run('ok', 'y = 2'),
      ),
    ]);
    expect(ids(plan)).toEqual(['ok']);
    expect(plan.skipped).toEqual([
      { toolCallId: 'pending', reason: 'no-output' },
      { toolCallId: 'denied', reason: 'no-output' },
      { toolCallId: 'partial', reason: 'no-output' },
      { toolCallId: 'graph', reason: 'stateless' },
    ]);
  });

  it('ignores malformed parts and messages', () => {
    const plan = planRestore([
      assistant(
        'a1',
        null,
        'tool-python',
        { type: 'tool-cobol', toolCallId: 'cobol', state: 'output-available', input: { code: 'x' }, output: result() },
        { type: 'tool-python', state: 'output-available', input: { code: 'no id' }, output: result() },
        { type: 'tool-python', toolCallId: 42, state: 'output-available', input: { code: 'x' }, output: result() },
        { type: 'tool-python', toolCallId: 'no-code', state: 'output-available', input: {}, output: result() },
        { type: 'tool-python', toolCallId: 'bad-status', state: 'output-available', input: { code: 'x' }, output: { ...result(), status: 'fine' } },
        { type: 'tool-python', toolCallId: 'bad-duration', state: 'output-available', input: { code: 'x' }, output: { ...result(), durationMs: -1 } },
        { type: 'tool-python', toolCallId: 'no-outputs', state: 'output-available', input: { code: 'x' }, output: { status: 'ok', durationMs: 1 } },
        run('ok', 'y = 2'),
      ),
      { id: 'a2', role: 'assistant', parts: 'not an array' as unknown as unknown[] },
      { id: 'u1', role: 'user', parts: [run('from-user', 'z = 3')] },
    ]);
    expect(ids(plan)).toEqual(['ok']);
    expect(plan.skipped).toEqual([]);
  });

  it('keeps a run whose outputs it does not all know, counting the stdout it does', () => {
    const outputs = [{ output_type: 'stream', name: 'stdout', text: 'hi\n' }, { output_type: 'widget', model: 7 }];
    const plan = planRestore([assistant('a1', { type: 'tool-python', toolCallId: 'c1', state: 'output-available', input: { code: 'print("hi")' }, output: { ...result(), outputs } })]);
    expect(plan.steps.map((step) => [step.toolCallId, step.recordedStdout])).toEqual([['c1', 'hi\n']]);
  });

  it('stops before beforeToolCallId', () => {
    const messages = [assistant('a1', run('c1', 'a = 1'), run('c2', 'b = 2', result({ status: 'error' }))), assistant('a2', run('c3', 'c = 3'), run('c4', 'd = 4'))];
    const plan = planRestore(messages, { beforeToolCallId: 'c3' });
    expect(ids(plan)).toEqual(['c1']);
    expect(plan.skipped).toEqual([{ toolCallId: 'c2', reason: 'failed' }]);
    expect(plan.totalRecordedMs).toBe(100);
    expect(ids(planRestore(messages, { beforeToolCallId: 'c1' }))).toEqual([]);
    // A call that is not stored yet (the one about to run) comes after everything.
    expect(ids(planRestore(messages, { beforeToolCallId: 'new' }))).toEqual(['c1', 'c3', 'c4']);
  });

  it('also stops before a beforeToolCallId that is a graphviz or a pending run', () => {
    const messages = [assistant('a1', run('c1', 'a = 1'), run('g', 'digraph {}', result(), 'tool-graphviz'), run('c2', 'b = 2'), pending('p', 'c = 3'))];
    expect(ids(planRestore(messages, { beforeToolCallId: 'g' }))).toEqual(['c1']);
    expect(planRestore(messages, { beforeToolCallId: 'p' }).skipped).toEqual([{ toolCallId: 'g', reason: 'stateless' }]);
  });

  it('starts over after a run whose interpreter was replaced', () => {
    const plan = planRestore([
      assistant('a1', run('c1', 'a = 1'), run('fail', 'x', result({ status: 'error' })), run('oom', 'big = [0] * 10**10', result({ status: 'error', restarted: true }))),
      assistant('a2', run('c2', 'b = 2'), run('c3', 'c = 3')),
    ]);
    expect(ids(plan)).toEqual(['c2', 'c3']);
    expect(plan.skipped).toEqual([{ toolCallId: 'oom', reason: 'failed' }]);
    expect(plan.totalRecordedMs).toBe(200);
  });

  it('drops an ok run whose interpreter was replaced after it, with everything before it', () => {
    const plan = planRestore([assistant('a1', run('c1', 'a = 1'), run('lost', 'b = 2', result({ restarted: true })), run('c2', 'c = 3'))]);
    expect(ids(plan)).toEqual(['c2']);
    expect(plan.skipped).toEqual([]);
  });

  it('skips a timeout that restarted the interpreter, and starts over after it', () => {
    const plan = planRestore([assistant('a1', run('c1', 'a = 1'), run('slow', 'while True: pass', result({ status: 'timeout', restarted: true })))]);
    expect(plan).toEqual({ steps: [], skipped: [{ toolCallId: 'slow', reason: 'failed' }], totalRecordedMs: 0 });
  });

  it('applies the restart rule only before beforeToolCallId', () => {
    const messages = [assistant('a1', run('c1', 'a = 1'), run('crash', 'x', result({ status: 'crashed', restarted: true })), run('c2', 'b = 2'))];
    expect(ids(planRestore(messages, { beforeToolCallId: 'crash' }))).toEqual(['c1']);
    expect(ids(planRestore(messages))).toEqual(['c2']);
  });
});

describe('shouldAutoRestore', () => {
  const plan = (totalRecordedMs: number): RestorePlan => ({ steps: [], skipped: [], totalRecordedMs });

  it('allows a plan within the default budget of 30 s, boundary included', () => {
    expect(shouldAutoRestore(plan(0))).toBe(true);
    expect(shouldAutoRestore(plan(30_000))).toBe(true);
    expect(shouldAutoRestore(plan(30_000.5))).toBe(false);
    expect(shouldAutoRestore(plan(30_001))).toBe(false);
  });

  it('uses the given budget', () => {
    expect(shouldAutoRestore(plan(5_000), 5_000)).toBe(true);
    expect(shouldAutoRestore(plan(5_001), 5_000)).toBe(false);
    expect(shouldAutoRestore(plan(45_000), 60_000)).toBe(true);
  });

  it('decides on a real plan from its recorded durations', () => {
    const messages = [assistant('a1', run('c1', 'a', result({ durationMs: 20_000 })), run('c2', 'b', result({ durationMs: 10_000 })))];
    expect(shouldAutoRestore(planRestore(messages))).toBe(true);
    expect(shouldAutoRestore(planRestore([...messages, assistant('a2', run('c3', 'c', result({ durationMs: 1 })))]))).toBe(false);
  });
});

describe('compareStdout', () => {
  it('returns null for the same output', () => {
    expect(compareStdout('', '')).toBeNull();
    expect(compareStdout('a\nb\n', 'a\nb\n')).toBeNull();
  });

  it('ignores trailing whitespace and line endings', () => {
    expect(compareStdout('a\nb\n', 'a\nb')).toBeNull();
    expect(compareStdout('a  \nb\t\n\n\n', 'a\nb')).toBeNull();
    expect(compareStdout('a\r\nb\r\n', 'a\nb\n')).toBeNull();
    expect(compareStdout('\n\n', '')).toBeNull();
  });

  it('does not ignore leading whitespace or blank lines in the middle', () => {
    expect(compareStdout('  a', 'a')).toBe('line 1: expected "  a", got "a"');
    expect(compareStdout('a\n\nb', 'a\nb')).toBe('line 2: expected "", got "b"');
  });

  it('describes the first differing line', () => {
    expect(compareStdout('total: 10\nmean: 2.5\nmax: 4\n', 'total: 10\nmean: 2.6\nmax: 5\n')).toBe('line 2: expected "mean: 2.5", got "mean: 2.6"');
  });

  it('says when one output ends early', () => {
    expect(compareStdout('a\nb\n', 'a\n')).toBe('line 2: expected "b", got end of output');
    expect(compareStdout('', 'surprise')).toBe('line 1: expected end of output, got "surprise"');
  });

  it('truncates long lines to 80 characters, around the difference', () => {
    const same = 'x'.repeat(200);
    const message = compareStdout(`${same}A${'y'.repeat(100)}`, `${same}B${'y'.repeat(100)}`);
    const [, expected, got] = /^line 1: expected (".*"), got (".*")$/.exec(message ?? '') ?? [];
    for (const excerpt of [expected, got]) expect((JSON.parse(excerpt) as string).length).toBe(80);
    expect(JSON.parse(expected)).toMatch(/^…x{20}Ay+…$/);
    expect(JSON.parse(got)).toMatch(/^…x{20}By+…$/);

    const short = compareStdout('a'.repeat(100), 'b');
    expect(short).toBe(`line 1: expected "${'a'.repeat(79)}…", got "b"`);
  });
});
