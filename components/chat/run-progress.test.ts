import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Output } from '@/lib/runtime/protocol';
import { boundOutputs, RunProgressSaver, SAVE_EVERY_MS } from './run-progress';

const print = (text: string): Output => ({ output_type: 'stream', name: 'stdout', text });

describe('RunProgressSaver', () => {
  let now = 0;
  let sent: Array<{ body: { startedAt: number; durationMs: number; outputs?: Output[] }; keepalive: boolean }>;
  let page: EventTarget;
  const saver = () =>
    new RunProgressSaver('/progress', { send: (_url, body, keepalive) => sent.push({ body: JSON.parse(body) as (typeof sent)[number]['body'], keepalive }), clock: () => now, page });

  beforeEach(() => {
    vi.useFakeTimers();
    page = new EventTarget();
    now = 0;
    sent = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends nothing for a run that ends within its first second', () => {
    const progress = saver();
    progress.running(1_000);
    progress.outputs([print('quick\n')]);
    progress.finish();
    vi.advanceTimersByTime(10 * SAVE_EVERY_MS);
    expect(sent).toEqual([]);
  });

  it('saves the start, the time run and the outputs while the run goes on; outputs only when they changed', () => {
    const progress = saver();
    const outputs: Output[] = [print('tick 1\n')];
    progress.running(5_000);
    progress.outputs(outputs);
    now = SAVE_EVERY_MS / 2;
    vi.advanceTimersByTime(SAVE_EVERY_MS / 2);
    expect(sent).toEqual([{ body: { startedAt: 5_000, durationMs: SAVE_EVERY_MS / 2, outputs: [print('tick 1\n')] }, keepalive: false }]);
    now += SAVE_EVERY_MS;
    vi.advanceTimersByTime(SAVE_EVERY_MS);
    expect(sent[1].body).toEqual({ startedAt: 5_000, durationMs: SAVE_EVERY_MS * 1.5 });
    outputs[0] = print('tick 1\ntick 2\n'); // the kernel's list, its last stream extended
    progress.outputs(outputs);
    now += SAVE_EVERY_MS;
    vi.advanceTimersByTime(SAVE_EVERY_MS);
    expect(sent[2].body.outputs).toEqual([print('tick 1\ntick 2\n')]);
    progress.finish();
    vi.advanceTimersByTime(10 * SAVE_EVERY_MS);
    expect(sent).toHaveLength(3);
  });

  it('sends a last save as the page goes away, kept alive', () => {
    const progress = saver();
    progress.running(5_000);
    progress.outputs([print('started\n')]);
    now = 300;
    page.dispatchEvent(new Event('pagehide'));
    expect(sent).toEqual([{ body: { startedAt: 5_000, durationMs: 300, outputs: [print('started\n')] }, keepalive: true }]);
    progress.finish();
  });
});

describe('boundOutputs', () => {
  it('keeps outputs that fit and cuts printed text past the room', () => {
    const outputs = [print('a'.repeat(100)), print('b'.repeat(10_000)), print('never')];
    const kept = boundOutputs(outputs, 2_000);
    expect(kept[0]).toEqual(outputs[0]);
    expect(kept).toHaveLength(2);
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(2_000);
    expect((kept[1] as { text: string }).text).toMatch(/^b+$/);
  });

  it('leaves out an image that does not fit, and what follows it', () => {
    const image: Output = { output_type: 'display_data', data: { 'image/png': 'A'.repeat(5_000) } };
    expect(boundOutputs([print('x\n'), image, print('after\n')], 1_000)).toEqual([print('x\n')]);
  });
});
