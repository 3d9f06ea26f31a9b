import { describe, expect, it } from 'vitest';
import type { RunResult } from '@/lib/runtime/protocol';
import { compareStdout, planRestore } from '@/lib/targets/restore-plan.client';
import type { TargetId } from './registry';
import { replayRuns } from './replay.client';
import type { RunContext, TargetRunner } from './runner';

/** Records which runner ran what; answers with the recorded stdout unless told otherwise. */
function recordingRunners(answers: Partial<Record<string, RunResult>> = {}) {
  const calls: Array<{ target: TargetId; code: string; runId?: string }> = [];
  const runner = (target: TargetId): TargetRunner => ({
    stateful: target !== 'graphviz',
    replay: target !== 'graphviz' ? 'replay' : 'none',
    start: async () => undefined,
    run: async (code: string, context: RunContext) => {
      calls.push({ target, code, runId: context.runId });
      return answers[code] ?? { status: 'ok', durationMs: 1, outputs: [{ output_type: 'stream', name: 'stdout', text: `${code}\n` }] };
    },
    missingRuns: (ids) => [...ids],
    restart: async () => undefined,
    dispose: () => undefined,
    state: () => ({ kind: 'ready' }),
    subscribe: () => () => undefined,
  });
  const runners = new Map<TargetId, TargetRunner>();
  return { calls, source: { get: (id: TargetId) => runners.get(id) ?? (runners.set(id, runner(id)), runners.get(id) as TargetRunner) } };
}

const stored = (toolCallId: string, type: string, code: string) => ({
  type,
  toolCallId,
  state: 'output-available',
  input: { code },
  output: { status: 'ok', durationMs: 10, outputs: [{ output_type: 'stream', name: 'stdout', text: `${code}\n` }] },
});

describe('replayRuns (restore)', () => {
  const messages = [{ id: 'a1', role: 'assistant', parts: [stored('s1', 'tool-sql', 'CREATE TABLE t AS SELECT 1 AS x'), stored('g1', 'tool-graphviz', 'digraph {}'), stored('p1', 'tool-python', 'print(_sql)')] }];

  it('runs each planned step on its own target, SQL included, in order, with its run id', async () => {
    const { calls, source } = recordingRunners();
    const outcome = await replayRuns(planRestore(messages).steps, source, { files: [], timeoutMs: 1_000, compare: compareStdout });
    expect(calls).toEqual([
      { target: 'sql', code: 'CREATE TABLE t AS SELECT 1 AS x', runId: 's1' },
      { target: 'python', code: 'print(_sql)', runId: 'p1' },
    ]);
    expect(outcome).toEqual({ runs: 2, failed: [] });
  });

  it('after an engine is replaced, skips that engine’s later runs and goes on with another engine’s (R after a SQL timeout)', async () => {
    const mixed = [
      { id: 'a1', role: 'assistant', parts: [stored('s1', 'tool-sql', 'CREATE TABLE t AS SELECT 1 AS x'), stored('r1', 'tool-r', 'kept <- 41'), stored('p1', 'tool-python', 'print(1)'), stored('r2', 'tool-r', 'cat(kept)')] },
    ];
    const { calls, source } = recordingRunners({ 'CREATE TABLE t AS SELECT 1 AS x': { status: 'timeout', durationMs: 1, outputs: [], restarted: true, failures: [{ kind: 'time-limit', limitMs: 1_000, state: 'lost' }] } });
    const outcome = await replayRuns(planRestore(mixed).steps, source, { files: [], timeoutMs: 1_000, compare: compareStdout });
    expect(calls.map((call) => call.runId)).toEqual(['s1', 'r1', 'r2']);
    expect(outcome).toEqual({ runs: 3, failed: ['run 1 (SQL) ended with timeout: The run was stopped after the time limit of 1 s. The interpreter was restarted; variables were lost.'] });
  });

  it('names the run and its target when it does not come back the same, and stops when the engine was replaced', async () => {
    const { calls, source } = recordingRunners({ 'CREATE TABLE t AS SELECT 1 AS x': { status: 'error', durationMs: 1, outputs: [], restarted: true } });
    const outcome = await replayRuns(planRestore(messages).steps, source, { files: [], timeoutMs: 1_000, compare: compareStdout });
    expect(calls.map((call) => call.runId)).toEqual(['s1']);
    expect(outcome).toEqual({ runs: 1, failed: ['run 1 (SQL) ended with error'] });
  });
});
