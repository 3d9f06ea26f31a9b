import type { TargetConfig } from './engine';
import { describe, expect, it } from 'vitest';
import type { Output, RunResult } from '@/lib/runtime/protocol';
import { newDropId } from '@/lib/files/data-file';
import { readingInPlace } from '@/lib/files/in-place-reads';
import { runOnTarget, runToolCall, type PipelineOptions } from './pipeline.client';
import { TARGET_LIST, TARGETS, type Target, type TargetId } from './registry';
import type { RunContext, RunnerState, TargetRunner } from './runner';
import { BROWSER_TARGETS, RunnerSet, type BrowserTarget } from './runners.client';

/** Where R would load from: never used here (the runners are fakes). */
const NO_WEBR = { webrBasePath: '/webr/test/', rPackageRepoUrl: 'http://127.0.0.1:9/' } as TargetConfig;

type Call = { code: string; context: RunContext };

/** A runner that records its calls and answers with what the test gives it. */
class FakeRunner implements TargetRunner {
  readonly calls: Call[] = [];
  readonly replay;
  files = new Map<string, Uint8Array>();
  constructor(
    readonly stateful: boolean,
    private readonly answer: (code: string) => RunResult | Promise<RunResult>,
  ) {
    this.replay = stateful ? ('replay' as const) : ('none' as const);
  }
  async start(): Promise<void> {}
  async run(code: string, context: RunContext): Promise<RunResult> {
    this.calls.push({ code, context });
    return this.answer(code);
  }
  missingRuns(): string[] {
    return [];
  }
  async readFile(path: string): Promise<Uint8Array> {
    const bytes = this.files.get(path);
    if (!bytes) throw new Error(`no ${path}`);
    return bytes;
  }
  async restart(): Promise<void> {}
  dispose(): void {}
  state(): RunnerState {
    return { kind: 'ready' };
  }
  subscribe(): () => void {
    return () => undefined;
  }
}

const ok = (outputs: Output[] = []): RunResult => ({ status: 'ok', durationMs: 3, outputs });
const printed = (text: string): Output => ({ output_type: 'stream', name: 'stdout', text });

function fakes(answers: Partial<Record<TargetId, (code: string) => RunResult | Promise<RunResult>>> = {}) {
  const runners = Object.fromEntries(
    TARGET_LIST.map((target) => [target.id, new FakeRunner(target.stateful, answers[target.id] ?? ((code) => ok([printed(`${target.id}: ${code}`)])))]),
  ) as Record<TargetId, FakeRunner>;
  const set = new RunnerSet(
    { engine: () => { throw new Error('no interpreter in this test'); }, config: NO_WEBR },
    // The fakes stand in for the runners; the steps targets declare are the real ones.
    Object.fromEntries(TARGET_LIST.map((target) => [target.id, { ...BROWSER_TARGETS[target.id], create: (): TargetRunner => runners[target.id] }])) as unknown as Record<TargetId, BrowserTarget>,
  );
  return { runners, set };
}

function options(set: RunnerSet, extra: Partial<PipelineOptions> = {}): PipelineOptions {
  return { runners: set, files: () => [{ name: 'sales.csv', sha256: 'a'.repeat(64), location: 'account', url: '/api/blobs/a' }], timeoutMs: () => 5_000, chartRenderer: async () => null, ...extra };
}

describe('the run pipeline', () => {
  it('dispatches every target to its own runner, with the run id, the files and the time limit', async () => {
    const { runners, set } = fakes();
    for (const target of TARGET_LIST) {
      const result = await runOnTarget(target, `code for ${target.id}`, { runId: `run-${target.id}` }, options(set));
      expect(result.outputs).toEqual([printed(`${target.id}: code for ${target.id}`)]);
      expect(runners[target.id].calls).toHaveLength(1);
      const [{ code, context }] = runners[target.id].calls;
      expect(code).toBe(`code for ${target.id}`);
      expect(context).toMatchObject({ runId: `run-${target.id}`, timeoutMs: 5_000, files: [{ name: 'sales.csv' }] });
    }
  });

  it('takes tool calls by their tool name, checks the input with the target’s schema, and ignores other tools', async () => {
    const { runners, set } = fakes();
    const sql = await runToolCall('sql', { code: 'SELECT 1' }, { runId: 's1' }, options(set));
    expect(sql?.target).toBe(TARGETS.sql);
    expect(sql?.result.outputs).toEqual([printed('sql: SELECT 1')]);
    const invalid = await runToolCall('graphviz', { source: 'digraph {}' }, { runId: 'g1' }, options(set));
    expect(invalid?.result).toMatchObject({ status: 'error', outputs: [{ ename: 'InvalidToolInput', evalue: 'The graphviz tool needs {"code": "<source>"}.' }] });
    expect(runners.graphviz.calls).toHaveLength(0);
    expect(await runToolCall('weather', { code: 'x' }, {}, options(set))).toBeNull();
  });

  it('draws DOT that a run displayed by running the Graphviz target, whichever target displayed it', async () => {
    const dot: Output = { output_type: 'display_data', data: { 'text/vnd.graphviz': 'digraph { a -> b }', 'text/plain': '<Graphviz diagram>' } };
    const { runners, set } = fakes({
      python: () => ok([dot]),
      graphviz: (code) => ok([{ output_type: 'display_data', data: { 'image/svg+xml': `<svg>${code}</svg>`, 'image/png': 'UE5H', 'text/plain': '<Graphviz diagram, 10×20>' } }]),
    });
    const result = await runOnTarget(TARGETS.python, 'show()', { runId: 'p1' }, options(set));
    expect(runners.graphviz.calls.map((call) => call.code)).toEqual(['digraph { a -> b }']);
    expect(result.outputs[0]).toEqual({
      output_type: 'display_data',
      data: { 'text/vnd.graphviz': 'digraph { a -> b }', 'image/svg+xml': '<svg>digraph { a -> b }</svg>', 'image/png': 'UE5H', 'text/plain': '<Graphviz diagram, 10×20>' },
    });
  });

  it('says in the output why a displayed diagram could not be drawn', async () => {
    const { set } = fakes({
      python: () => ok([{ output_type: 'display_data', data: { 'text/vnd.graphviz': 'digraph {{', 'text/plain': '<Graphviz diagram>' } }]),
      graphviz: () => ({ status: 'error', durationMs: 1, outputs: [{ output_type: 'error', ename: 'DotSyntaxError', evalue: 'syntax error in line 1', traceback: [] }] }),
    });
    const result = await runOnTarget(TARGETS.python, 'show()', {}, options(set));
    expect(result.outputs[0]).toMatchObject({ data: { 'text/plain': '<Graphviz could not draw this diagram: DotSyntaxError: syntax error in line 1>' } });
  });

  it('gives each Vega-Lite chart a PNG for the model', async () => {
    const spec = { $schema: 'https://vega.github.io/schema/vega-lite/v5.json', mark: 'bar', data: { values: [{ a: 1 }] }, encoding: { x: { field: 'a', type: 'quantitative' } } };
    const { set } = fakes({ sql: () => ok([{ output_type: 'display_data', data: { 'application/vnd.vegalite.v5+json': spec, 'text/plain': 'chart' } }]) });
    const result = await runOnTarget(TARGETS.sql, 'SELECT 1', {}, options(set, { chartRenderer: async () => 'iVBORw0KGgo=' }));
    expect(result.outputs[0]).toMatchObject({ data: { 'image/png': 'iVBORw0KGgo=', 'application/vnd.vegalite.v5+json': spec } });
  });

  it('stores the files a run wrote, read from the engine that wrote them; one that cannot be stored keeps its chip without a link', async () => {
    const { runners, set } = fakes({
      python: () =>
        ok([
          { output_type: 'file', name: 'report.csv', size: 3, mediaType: 'text/csv' },
          { output_type: 'file', name: 'missing.txt', size: 1, mediaType: 'text/plain' },
        ]),
    });
    runners.python.files.set('/output/report.csv', new TextEncoder().encode('a,b'));
    const stored: string[] = [];
    const storeFile = async ({ name, bytes }: { name: string; bytes: Uint8Array }) => {
      stored.push(`${name}:${new TextDecoder().decode(bytes)}`);
      return 'f'.repeat(64);
    };
    const result = await runOnTarget(TARGETS.python, 'write()', {}, options(set, { storeFile }));
    expect(stored).toEqual(['report.csv:a,b']);
    expect(result.outputs).toEqual([
      { output_type: 'file', name: 'report.csv', size: 3, mediaType: 'text/csv', ref: `blob:${'f'.repeat(64)}` },
      { output_type: 'file', name: 'missing.txt', size: 1, mediaType: 'text/plain' },
    ]);
    // Without a place to store them (the share page), files stay as they are.
    const unstored = await runOnTarget(TARGETS.python, 'write()', {}, options(set));
    expect(unstored.outputs.every((output) => output.output_type === 'file' && !output.ref)).toBe(true);
  });

  it('restores before a run of a stateful target only, and says so instead of "fresh interpreter"', async () => {
    const { runners, set } = fakes({ sql: () => ({ ...ok(), freshInterpreter: { missingRuns: 2 } }) });
    const asked: string[] = [];
    const beforeStatefulRun = async (runId: string, target: Target) => {
      asked.push(`${runId} on ${target.engine}`);
      return { dependsOn: ['earlier-1', 'earlier-2'], restored: { runs: 2, failed: [] } };
    };
    const sql = await runOnTarget(TARGETS.sql, 'SELECT * FROM t', { runId: 's2' }, options(set, { beforeStatefulRun }));
    await runOnTarget(TARGETS.graphviz, 'digraph {}', { runId: 'g2' }, options(set, { beforeStatefulRun }));
    expect(asked).toEqual(['s2 on pyodide']);
    expect(runners.sql.calls[0].context.dependsOn).toEqual(['earlier-1', 'earlier-2']);
    expect(sql.restored).toEqual({ runs: 2, failed: [] });
    expect(sql.freshInterpreter).toBeUndefined();
  });

  it('turns a runner that cannot be made or that throws into a result that says so', async () => {
    const set = new RunnerSet({ engine: () => { throw new Error('the interpreter has not started'); }, config: NO_WEBR });
    const result = await runOnTarget(TARGETS.python, 'print(1)', {}, options(set));
    expect(result).toMatchObject({ status: 'error', failures: [{ kind: 'engine-start', engine: 'Python', detail: 'the interpreter has not started' }] });
    const { set: throwing } = fakes({ graphviz: () => Promise.reject(new Error('worker died')) });
    expect(await runOnTarget(TARGETS.graphviz, 'digraph {}', {}, options(throwing))).toMatchObject({ status: 'error', failures: [{ kind: 'engine-start', engine: 'Graphviz', detail: 'worker died' }] });
  });

  it('never rejects: a restore or the files failing before the run, or a step after it, still give the tool call a result', async () => {
    // A tool call whose run rejects gets no output, and the turn waits for it forever.
    const { runners, set } = fakes();
    const failingRestore = options(set, { beforeStatefulRun: () => Promise.reject(new Error('restore lost its worker')) });
    const before = await runToolCall('r', { code: 'x <- 1' }, { runId: 'r1' }, failingRestore);
    expect(before?.result).toMatchObject({ status: 'crashed', failures: [{ kind: 'crashed', engine: 'R', cause: 'fault', detail: 'restore lost its worker' }] });
    expect(runners.r.calls).toHaveLength(0);
    const failingFiles = options(set, { files: () => { throw new Error('files unreadable'); } });
    const files = await runToolCall('r', { code: 'x <- 1' }, { runId: 'r2' }, failingFiles);
    expect(runners.r.calls).toHaveLength(0);
    expect(files?.result).toMatchObject({ status: 'crashed', failures: [{ kind: 'crashed', engine: 'R', cause: 'fault', detail: 'files unreadable' }] });
    // A post-processing step that throws: the run's own result still reaches the tool call.
    const throwingStep = { get: (id: TargetId) => set.get(id), postProcessSteps: () => [() => Promise.reject(new Error('step failed'))] };
    const after = await runToolCall('r', { code: 'x <- 1' }, { runId: 'r3' }, options(set, { runners: throwingStep }));
    expect(after?.result).toMatchObject({ status: 'ok', outputs: [printed('r: x <- 1')] });
  });

  it('holds keeps on this device while any target runs over a file just dropped, until the run ends, thrown or not; a run over kept files does not', async () => {
    const dropped = { name: 'big.csv', location: 'dropped' as const, dropId: newDropId(), file: new Blob(['x\n1\n']) };
    const kept = { name: 'big.csv', location: 'device' as const, sha256: 'b'.repeat(64) };
    const readingAtRun: boolean[] = [];
    const seen = () => {
      readingAtRun.push(readingInPlace());
      return ok();
    };
    const { set } = fakes(Object.fromEntries(TARGET_LIST.map((target) => [target.id, seen])));
    for (const target of TARGET_LIST) {
      await runOnTarget(target, '1', { runId: `d-${target.id}` }, options(set, { files: () => [dropped] }));
      expect(readingInPlace()).toBe(false);
      await runOnTarget(target, '2', { runId: `k-${target.id}` }, options(set, { files: () => [kept] }));
    }
    expect(readingAtRun).toEqual(TARGET_LIST.flatMap(() => [true, false]));
    // A runner that throws (its own bug) still ends the hold.
    const { set: throwing } = fakes({ python: () => Promise.reject(new Error('runner bug')) });
    const result = await runOnTarget(TARGETS.python, '1', { runId: 't1' }, options(throwing, { files: () => [dropped] }));
    expect(result.status).toBe('error');
    expect(readingInPlace()).toBe(false);
  });
});
