/**
 * The run failure union: one example of every variant, worded for the person and for the model,
 * each checked against the schema (so a stored failure reads back), and turned into a result.
 */
import { describe, expect, it } from 'vitest';
import { runResultSchema } from './protocol';
import { failureForModel, failureForPerson, failureOfError, noticeForModel, noticeForPerson, runFailureSchema, RunFailureError, type RunFailure, type RunFailureKind } from './run-failure';
import { failedRun, failureOfResult } from './failed-run';

/** One of each kind, with what the person's words and the model's words must say. */
const EXAMPLES: Record<RunFailureKind, { failure: RunFailure; person: string[]; model: string[] }> = {
  code: {
    failure: { kind: 'code', engine: 'Graphviz', ename: 'DotSyntaxError', evalue: "syntax error in line 2 near '->'", line: 2, excerpt: 'a -> -> b' },
    person: ["DotSyntaxError: syntax error in line 2 near '->' (line 2)", '2 | a -> -> b'],
    model: ['Graphviz raised DotSyntaxError', 'Fix the code'],
  },
  'time-limit': {
    failure: { kind: 'time-limit', limitMs: 30_000, state: 'kept' },
    person: ['The run was stopped after the time limit of 30 s. Variables were kept.'],
    model: ['time limit of 30 s', 'Variables were kept', 'do not just run it again'],
  },
  interrupted: {
    failure: { kind: 'interrupted', state: 'lost' },
    person: ['Stopped. The interpreter was restarted; variables were lost.'],
    model: ['The user stopped this run', 'variables were lost', 'unless the user asks'],
  },
  'memory-limit': {
    failure: { kind: 'memory-limit', engine: 'Python', limitBytes: 1.5 * 1024 ** 3 },
    person: ["The run needed more memory than the interpreter's limit of 1.5 GiB and was stopped. The interpreter was restarted; variables were lost."],
    model: ['more than 1.5 GiB', 'Use less memory'],
  },
  crashed: {
    failure: { kind: 'crashed', engine: 'R', cause: 'ignored-interrupt', stateLost: true },
    person: ['R did not stop when interrupted, so it was replaced. The interpreter was restarted; variables were lost.'],
    model: ['R was replaced and variables were lost', 're-create'],
  },
  'engine-start': {
    failure: { kind: 'engine-start', engine: 'R', detail: 'R.wasm could not be compiled' },
    person: ['R could not start (R.wasm could not be compiled). Reload the page to try again.'],
    model: ["R could not start in the user's browser", 'the code did not run', 'Do not retry'],
  },
  'package-unavailable': {
    failure: { kind: 'package-unavailable', engine: 'Python', packages: [{ name: 'numpy', url: 'https://cdn.example/numpy.whl', detail: 'HTTP 404' }] },
    person: ['Could not load numpy: it could not be downloaded from the package source.'],
    model: ['numpy could not be downloaded', 'use what is installed or the standard library'],
  },
  'output-capped': {
    failure: { kind: 'output-capped', caps: [{ cap: 'outputsPerRun', limit: 500 }, { cap: 'streamChars', limit: 1_000_000 }] },
    person: ['Some output was not kept (limits of a run): outputs past the first 500; printed output past 1,000,000 characters.'],
    model: ['Output was cut', 'Print or show less'],
  },
  'output-refused': {
    failure: { kind: 'output-refused', engine: 'Graphviz', what: 'source', limitChars: 200_000, chars: 250_000 },
    person: ['The Graphviz source is 250,000 characters long; the limit is 200,000 characters.'],
    model: ['limit 200,000 characters, it has 250,000', 'split it'],
  },
  'reply-invalid': {
    failure: { kind: 'reply-invalid', engine: 'R', dropped: 2 },
    person: ['2 messages from R did not match the output format and were dropped.'],
    model: ['from R did not match the output format', 'may be incomplete'],
  },
  'dataset-missing': {
    failure: { kind: 'dataset-missing', name: 'sales.csv', reason: 'http', status: 404 },
    person: ['The file sales.csv could not be loaded (HTTP 404).'],
    model: ['sales.csv could not be loaded (HTTP 404)', 'uploaded it again'],
  },
  'input-invalid': {
    failure: { kind: 'input-invalid', tool: 'graphviz' },
    person: ['The graphviz tool needs {"code": "<source>"}.'],
    model: ['The graphviz tool needs {"code": "<source>"}.'],
  },
  'page-closed': {
    failure: { kind: 'page-closed' },
    person: ['The page was closed or reloaded while this ran, so it did not finish.'],
    model: ['did not finish and has no result'],
  },
};

describe('run failures', () => {
  it.each(Object.entries(EXAMPLES))('%s: a valid variant, worded for the person and for the model', (kind, { failure, person, model }) => {
    expect(failure.kind).toBe(kind);
    expect(runFailureSchema.parse(failure)).toEqual(failure);
    const forPerson = failureForPerson(failure);
    const forModel = failureForModel(failure);
    for (const words of person) expect(forPerson).toContain(words);
    for (const words of model) expect(forModel).toContain(words);
  });

  it.each(Object.entries(EXAMPLES))('%s: a run ending with it is a valid result, its failure listed or its error output', (kind, { failure }) => {
    const result = runResultSchema.parse(failedRun(failure, 12));
    const shown = [...result.outputs.flatMap((o) => (o.output_type === 'error' ? [`${o.ename}: ${o.evalue}`] : [])), noticeForPerson(result) ?? ''].join(' ');
    expect(shown).toContain(kind === 'code' ? 'DotSyntaxError' : failureForPerson(failure).slice(0, 30));
    // What a later step reads back of it is the same failure (the code's own error, as its facts).
    expect(failureOfResult(result, 'Graphviz')?.kind).toBe(kind === 'package-unavailable' || kind === 'input-invalid' ? 'code' : kind);
  });

  it('says which runs lost their state, and gives each the status it ends with', () => {
    expect(failedRun({ kind: 'time-limit', limitMs: 1_000, state: 'lost' }, 1)).toMatchObject({ status: 'timeout', restarted: true });
    expect(failedRun({ kind: 'time-limit', limitMs: 1_000, state: 'kept' }, 1).restarted).toBeUndefined();
    expect(failedRun({ kind: 'crashed', engine: 'Graphviz', cause: 'fault', stateLost: false }, 1)).toMatchObject({ status: 'crashed' });
    expect(failedRun({ kind: 'page-closed' }, 0).status).toBe('page-closed');
    expect(failedRun({ kind: 'engine-start', engine: 'R' }, 0).status).toBe('error');
  });

  it('an error carrying a failure gives it back; any other is the engine’s fault, its message kept for the detail only', () => {
    const missing: RunFailure = { kind: 'dataset-missing', name: 'a.csv', reason: 'damaged' };
    const error = new RunFailureError(missing);
    expect(error.message).not.toContain('a.csv'); // no words for a person in Error.message
    expect(failureOfError(error, 'Python')).toBe(missing);
    expect(failureOfError(new Error('boom'), 'Python')).toEqual({ kind: 'crashed', engine: 'Python', cause: 'fault', stateLost: true, detail: 'boom' });
  });

  it('words a result’s failures and its free notice together, for each reader', () => {
    const result = { failures: [EXAMPLES['time-limit'].failure], notice: 'This run could not be saved.' };
    expect(noticeForPerson(result)).toBe('The run was stopped after the time limit of 30 s. Variables were kept. This run could not be saved.');
    expect(noticeForModel(result)).toContain('do not just run it again. This run could not be saved.');
    expect(noticeForPerson({})).toBeNull();
  });
});
