import { describe, expect, it } from 'vitest';
import { planRerun } from './rerun-plan.client';

const ok = (code: string, extra: Record<string, unknown> = {}) => ({ state: 'output-available', input: { code }, output: { status: 'ok', outputs: [], durationMs: 5, ...extra } });

describe('planRerun', () => {
  it('runs ok and error cells of every target in order, and skips what did not finish', () => {
    const steps = planRerun([
      { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'text', text: 'Here.' },
          { type: 'tool-python', toolCallId: 'a', ...ok('print(1)') },
          { type: 'tool-sql', toolCallId: 'b', ...ok('SELECT 1', { status: 'error' }) },
          { type: 'tool-graphviz', toolCallId: 'c', ...ok('digraph { a }') },
          { type: 'tool-python', toolCallId: 'd', ...ok('while True: pass', { status: 'timeout' }) },
          { type: 'tool-python', toolCallId: 'e', state: 'input-available', input: { code: 'x' } },
          { type: 'tool-python', toolCallId: 'f', ...ok('print(2)'), preliminary: true },
          { type: 'tool-unknown', toolCallId: 'g', ...ok('?') },
        ],
      },
    ]);
    expect(steps.map((step) => [step.toolCallId, step.target.id, step.kind])).toEqual([
      ['a', 'python', 'run'],
      ['b', 'sql', 'run'],
      ['c', 'graphviz', 'run'],
      ['d', 'python', 'skip'],
      ['e', 'python', 'skip'],
      ['f', 'python', 'skip'],
    ]);
    expect(steps[0]).toMatchObject({ code: 'print(1)', recorded: { status: 'ok' } });
    expect(steps[3]).toMatchObject({ reason: 'it ran out of time when recorded', restartAfter: false });
  });

  it('skips a run that replaced its interpreter, and says to start the next ones from an empty one', () => {
    const steps = planRerun([{ role: 'assistant', parts: [{ type: 'tool-python', toolCallId: 'a', ...ok('big()', { status: 'error', restarted: true }) }] }]);
    expect(steps).toMatchObject([{ kind: 'skip', reason: 'its interpreter was replaced when recorded', restartAfter: true }]);
  });

  it('leaves out parts that are not tool calls and messages of other roles', () => {
    expect(planRerun([{ role: 'user', parts: [{ type: 'tool-python', toolCallId: 'x', ...ok('1') }] }, { role: 'assistant', parts: [null, 'text', { type: 'tool-python' }] }])).toEqual([]);
  });
});
