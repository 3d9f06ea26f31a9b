/** The pieces every page-side runner shares: its reported state, and a worker on a private port. */
import { describe, expect, it } from 'vitest';
import type { RunnerState } from './runner';
import { connectWorker, disconnectWorker, RunnerStates } from './runner-state.client';

describe('RunnerStates', () => {
  it('starts idle, tells each listener every change until it unsubscribes, and nobody after clear', () => {
    const states = new RunnerStates();
    expect(states.current).toEqual({ kind: 'idle' });
    const heard: RunnerState[] = [];
    const other: RunnerState[] = [];
    const stop = states.subscribe((state) => heard.push(state));
    states.subscribe((state) => other.push(state));
    states.set({ kind: 'busy' });
    stop();
    states.set({ kind: 'ready' });
    states.clear();
    states.set({ kind: 'idle' });
    expect(heard).toEqual([{ kind: 'busy' }]);
    expect(other).toEqual([{ kind: 'busy' }, { kind: 'ready' }]);
    expect(states.current).toEqual({ kind: 'idle' });
  });
});

describe('connectWorker', () => {
  it('hands the worker one end of a new port with its fields; the page keeps the other; disconnect ends both', async () => {
    const posted: { message: { type: string; port: MessagePort; baseUrl: string }; transfer: Transferable[] }[] = [];
    let terminated = false;
    const worker = {
      postMessage: (message: never, transfer: Transferable[]) => posted.push({ message, transfer }),
      terminate: () => (terminated = true),
    } as unknown as Worker;
    const { port } = connectWorker(worker, { baseUrl: '/engine/' });
    expect(posted).toHaveLength(1);
    const [{ message, transfer }] = posted;
    expect(message).toMatchObject({ type: 'connect', baseUrl: '/engine/' });
    expect(transfer).toEqual([message.port]);
    const received = new Promise<unknown>((resolve) => (message.port.onmessage = (event) => resolve(event.data)));
    port.postMessage('over the private port');
    expect(await received).toBe('over the private port');
    disconnectWorker({ worker, port });
    expect(terminated).toBe(true);
    message.port.close();
  });
});
