import { describe, expect, it, vi } from 'vitest';
import { TARGET_LIST, TARGETS } from './registry';
import { incomingRunOutputSchema, isPendingRunPart, readRunPart, runPartSchema, runResultOf, withRunResult, withUserRun } from './run-part';

const result = { status: 'ok', durationMs: 12, outputs: [{ output_type: 'stream', name: 'stdout', text: '42\n' }] };
const part = (over: Record<string, unknown> = {}) => ({ type: 'tool-sql', toolCallId: 'call-1', state: 'output-available', input: { code: 'SELECT 42' }, output: result, ...over });

describe('the stored run part', () => {
  it('is a part of every target of the registry, and of nothing else', () => {
    for (const target of TARGET_LIST) expect(runPartSchema.safeParse(part({ type: `tool-${target.toolName}` })).success).toBe(true);
    expect(runPartSchema.safeParse(part({ type: 'tool-weather' })).success).toBe(false);
    expect(runPartSchema.safeParse(part({ type: 'text' })).success).toBe(false);
    expect(runPartSchema.safeParse(part({ toolCallId: '' })).success).toBe(false);
    expect(runPartSchema.safeParse(part({ state: 'finished' })).success).toBe(false);
  });

  it('reads back its target, the code that ran and the recorded run, keeping fields it does not know', () => {
    const read = readRunPart({ ...part(), providerExecuted: false });
    expect(read?.target).toBe(TARGETS.sql);
    expect(read?.code).toBe('SELECT 42');
    expect(read?.recorded).toMatchObject({ status: 'ok', durationMs: 12 });
    expect(read?.part).toMatchObject({ providerExecuted: false });
    expect(readRunPart({ type: 'text', text: 'hi' })).toBeNull();
  });

  it('keeps a recorded run whose outputs this version does not know (restore and export must not drop it), while the protocol refuses them', () => {
    const future = part({ output: { ...result, outputs: [{ output_type: 'widget', model: {} }] } });
    expect(readRunPart(future)?.recorded?.status).toBe('ok');
    expect(runResultOf(runPartSchema.parse(future))).toBeNull();
    expect(runResultOf(runPartSchema.parse(part()))).toMatchObject({ status: 'ok', outputs: [{ text: '42\n' }] });
  });

  it('has no recorded run while streaming, when preliminary, or without an output; no code when the input is not valid', () => {
    expect(readRunPart(part({ state: 'input-streaming', output: undefined }))?.recorded).toBeNull();
    expect(readRunPart(part({ preliminary: true }))?.recorded).toBeNull();
    expect(readRunPart(part({ output: { status: 'done' } }))?.recorded).toBeNull();
    expect(readRunPart(part({ input: { source: 'SELECT 1' } }))?.code).toBeNull();
  });

  it('reads an unchanged part once, and a part changed in place again', () => {
    const parse = vi.spyOn(runPartSchema, 'safeParse');
    const stored = part();
    const first = readRunPart(stored);
    expect(readRunPart(stored)).toBe(first);
    expect(parse).toHaveBeenCalledTimes(1);
    // Not expected of the AI SDK or of our code, which replace a part to change it; still never stale.
    Object.assign(stored, { state: 'output-error', errorText: 'gone' });
    expect(readRunPart(stored)?.recorded).toBeNull();
    expect(readRunPart(stored)?.part.errorText).toBe('gone');
    expect(parse).toHaveBeenCalledTimes(2);
    parse.mockRestore();
  });

  it('knows a pending run, answers it, and records the user’s own run', () => {
    expect(isPendingRunPart(part({ state: 'input-available', output: undefined }))).toBe(true);
    expect(isPendingRunPart(part({ state: 'input-streaming', input: undefined, output: undefined }))).toBe(true);
    expect(isPendingRunPart(part())).toBe(false);
    expect(isPendingRunPart({ type: 'tool-weather', toolCallId: 'w', state: 'input-available' })).toBe(false);
    const closed = withRunResult({ type: 'tool-python', toolCallId: 'p', state: 'input-streaming' }, { status: 'page-closed', durationMs: 0, outputs: [] });
    expect(closed).toEqual({ type: 'tool-python', toolCallId: 'p', state: 'output-available', input: {}, output: { status: 'page-closed', durationMs: 0, outputs: [] } });
    expect(withUserRun(part(), 'SELECT 43', { ...result, userRun: 'edited' })).toMatchObject({ input: { code: 'SELECT 43' }, output: { userRun: 'edited' } });
  });

  it('accepts from the browser only a valid result for a target’s part', () => {
    expect(incomingRunOutputSchema.safeParse(part()).success).toBe(true);
    expect(incomingRunOutputSchema.safeParse(part({ type: 'tool-weather' })).success).toBe(false);
    expect(incomingRunOutputSchema.safeParse(part({ output: { ...result, status: 'done' } })).success).toBe(false);
    expect(incomingRunOutputSchema.safeParse(part({ state: 'input-available' })).success).toBe(false);
  });
});
