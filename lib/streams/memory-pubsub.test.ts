/**
 * The in-process pub/sub against the Redis semantics resumable-stream's runtime relies on:
 * GET/SET with expiry, INCR (and its error on a non-integer), publish → subscribe in order and
 * asynchronously, unsubscribe, and that expired keys and timers do not outlive their use.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryPubSub } from './memory-pubsub.server';
import { signal } from '../testing/streams';

/** Collects a channel's messages; `until(n)` resolves once n have arrived. */
function collector() {
  const messages: string[] = [];
  let waiting: { count: number; resolve: () => void } | null = null;
  const callback = (message: string) => {
    messages.push(message);
    if (waiting && messages.length >= waiting.count) waiting.resolve();
  };
  const until = (count: number) =>
    new Promise<void>((resolve) => {
      if (messages.length >= count) resolve();
      else waiting = { count, resolve };
    });
  return { messages, callback, until };
}

describe('memory pub/sub', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gets what was set, null for a missing key', async () => {
    const bus = new MemoryPubSub();
    const { publisher } = bus;
    expect(await publisher.get('missing')).toBeNull();
    expect(await publisher.set('k', 'v')).toBe('OK');
    expect(await publisher.get('k')).toBe('v');
    await publisher.set('k', 'w', { EX: 60 });
    expect(await publisher.get('k')).toBe('w');
    await expect(publisher.set('k', 'x', { EX: 0 })).rejects.toThrow(/invalid expire time/);
    await bus.close();
  });

  it('expires keys, keeps the expiry through INCR and drops it on a plain SET', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const bus = new MemoryPubSub();
    const { publisher } = bus;
    await publisher.set('short', '1', { EX: 10 });
    await publisher.set('kept', '1', { EX: 10 });
    await publisher.set('kept', '2');
    expect(await publisher.incr('short')).toBe(2);
    vi.setSystemTime(Date.now() + 9_999);
    expect(await publisher.get('short')).toBe('2');
    vi.setSystemTime(Date.now() + 1);
    expect(await publisher.get('short')).toBeNull();
    expect(await publisher.get('kept')).toBe('2');
    await bus.close();
  });

  it('sweeps expired keys it is never asked for, and stops its timer when none has an expiry', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const bus = new MemoryPubSub({ sweepIntervalMs: 1000 });
    await bus.publisher.set('plain', 'x');
    expect(vi.getTimerCount()).toBe(0);
    await bus.publisher.set('a', '1', { EX: 1 });
    await bus.publisher.set('b', '1', { EX: 5 });
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(bus.keyCount).toBe(2);
    vi.advanceTimersByTime(4000);
    expect(bus.keyCount).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    await bus.publisher.set('c', '1', { EX: 5 });
    expect(vi.getTimerCount()).toBe(1);
    await bus.close();
    expect(vi.getTimerCount()).toBe(0);
    expect(bus.keyCount).toBe(0);
  });

  it('increments from nothing, and fails on a non-integer with the error text the runtime looks for', async () => {
    const bus = new MemoryPubSub();
    const { publisher } = bus;
    expect(await publisher.incr('n')).toBe(1);
    expect(await publisher.incr('n')).toBe(2);
    expect(await publisher.get('n')).toBe('2');
    await publisher.set('done', 'DONE', { EX: 60 });
    await expect(publisher.incr('done')).rejects.toThrow('ERR value is not an integer or out of range');
    await publisher.set('padded', '01');
    await expect(publisher.incr('padded')).rejects.toThrow('ERR value is not an integer or out of range');
    expect(await publisher.get('done')).toBe('DONE');
    await bus.close();
  });

  it('delivers after publish returns, in publish order, to every subscriber of the channel', async () => {
    const bus = new MemoryPubSub();
    const first = collector();
    const second = collector();
    const other = bus.createSubscriber();
    await bus.subscriber.subscribe('ch', first.callback);
    await other.subscribe('ch', second.callback);
    const published = Array.from({ length: 50 }, (_, i) => `m${i}`);
    const publishing = published.map((message) => bus.publisher.publish('ch', message));
    // Nothing is delivered inside publish itself.
    expect(first.messages).toEqual([]);
    expect((await Promise.all(publishing)).every((count) => count === 2)).toBe(true);
    await Promise.all([first.until(50), second.until(50)]);
    expect(first.messages).toEqual(published);
    expect(second.messages).toEqual(published);
    expect(await bus.publisher.publish('nobody', 'x')).toBe(0);
    await bus.close();
  });

  it('keeps the order when a subscriber publishes from its callback', async () => {
    const bus = new MemoryPubSub();
    const log = collector();
    await bus.subscriber.subscribe('log', log.callback);
    await bus.subscriber.subscribe('request', (message) => {
      void bus.publisher.publish('log', `reply to ${message}`);
    });
    // Published together: the reply is published during delivery, so after 'after'.
    await Promise.all([bus.publisher.publish('log', 'before'), bus.publisher.publish('request', 'r1'), bus.publisher.publish('log', 'after')]);
    await log.until(3);
    expect(log.messages).toEqual(['before', 'after', 'reply to r1']);
    await bus.close();
  });

  it('stops delivering on unsubscribe, including messages already queued', async () => {
    const bus = new MemoryPubSub();
    const dropped = collector();
    const barrier = signal<string>();
    await bus.subscriber.subscribe('a', dropped.callback);
    await bus.subscriber.subscribe('b', barrier.resolve);
    // Unsubscribed in the same tick, before the queued message is delivered.
    const queued = bus.publisher.publish('a', 'queued');
    await bus.subscriber.unsubscribe('a');
    expect(await queued).toBe(1);
    expect(await bus.publisher.publish('a', 'later')).toBe(0);
    // Delivery is in publish order: once 'b' has its message, 'a' had its turn.
    await bus.publisher.publish('b', 'barrier');
    expect(await barrier.promise).toBe('barrier');
    expect(dropped.messages).toEqual([]);
    await bus.close();
  });

  it('reports a failing callback and still delivers to the others', async () => {
    const errors = collector();
    const bus = new MemoryPubSub({ onCallbackError: (error) => errors.callback((error as Error).message) });
    const received = signal<string>();
    await bus.subscriber.subscribe('ch', () => {
      throw new Error('sync failure');
    });
    await bus.createSubscriber().subscribe('ch', async () => {
      throw new Error('async failure');
    });
    await bus.createSubscriber().subscribe('ch', received.resolve);
    await bus.publisher.publish('ch', 'hello');
    expect(await received.promise).toBe('hello');
    await errors.until(2);
    expect(errors.messages.sort()).toEqual(['async failure', 'sync failure']);
    await bus.close();
  });

  it('rejects use after close, but lets cleanup unsubscribe', async () => {
    const bus = new MemoryPubSub();
    await bus.subscriber.subscribe('ch', () => undefined);
    await bus.close();
    await expect(bus.publisher.get('k')).rejects.toThrow('closed');
    await expect(bus.publisher.publish('ch', 'x')).rejects.toThrow('closed');
    await expect(bus.subscriber.subscribe('ch', () => undefined)).rejects.toThrow('closed');
    await expect(bus.subscriber.unsubscribe('ch')).resolves.toBeUndefined();
  });
});
