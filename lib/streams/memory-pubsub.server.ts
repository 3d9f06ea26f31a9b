/**
 * An in-process stand-in for the Redis publisher/subscriber pair that resumable-stream needs, for
 * the default single-instance deployment (no REDIS_URL). It implements exactly what the package's
 * runtime uses: GET, SET (with EX), INCR, PUBLISH, SUBSCRIBE and UNSUBSCRIBE. It keeps Redis's
 * semantics where the runtime depends on them: INCR of a non-integer fails with Redis's error text
 * (the runtime reads it as "this stream is done"), INCR keeps a key's expiry, and messages reach
 * subscribers asynchronously (never inside `publish`), in publish order.
 */
import 'server-only';
import type { Publisher, Subscriber } from 'resumable-stream/generic';

type Entry = { value: string; expiresAt: number | null };
type Subscription = { callback: (message: string) => void; active: boolean };

export interface MemoryPubSubOptions {
  /** How often expired keys are swept while any key has an expiry; default one minute. */
  sweepIntervalMs?: number;
  /** Where a throwing subscriber callback is reported; it never breaks delivery to the others. */
  onCallbackError?: (error: unknown) => void;
}

const NOT_AN_INTEGER = 'ERR value is not an integer or out of range';
// Redis's own integer syntax: no leading zeros, no '+', no spaces.
const INTEGER = /^(0|-?[1-9][0-9]*)$/;

export class MemoryPubSub {
  /** The publisher to hand to resumable-stream. */
  readonly publisher: Publisher;
  /** A subscriber (one "connection"); `createSubscriber()` makes more on the same bus. */
  readonly subscriber: Subscriber;

  private readonly entries = new Map<string, Entry>();
  /** The keys with an expiry, so a sweep does not walk every key. */
  private readonly expiring = new Set<string>();
  private readonly channels = new Map<string, Set<Subscription>>();
  private queue: Array<{ subscription: Subscription; message: string }> = [];
  private drainScheduled = false;
  private sweepTimer: ReturnType<typeof setInterval> | null = null;
  private closed = false;
  private readonly sweepIntervalMs: number;
  private readonly onCallbackError: (error: unknown) => void;

  constructor(options: MemoryPubSubOptions = {}) {
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    this.onCallbackError = options.onCallbackError ?? ((error) => console.error('memory pub/sub subscriber failed', error));
    this.publisher = {
      connect: async () => this.assertOpen(),
      publish: async (channel, message) => this.publish(channel, message),
      set: async (key, value, options) => {
        this.assertOpen();
        const seconds = options?.EX;
        if (seconds !== undefined && !(Number.isInteger(seconds) && seconds > 0)) throw new Error("ERR invalid expire time in 'set' command");
        // A plain SET drops an earlier expiry, as in Redis.
        this.write(key, value, seconds === undefined ? null : Date.now() + seconds * 1000);
        return 'OK';
      },
      get: async (key) => {
        this.assertOpen();
        return this.read(key)?.value ?? null;
      },
      incr: async (key) => {
        this.assertOpen();
        const entry = this.read(key);
        const current = entry?.value ?? '0';
        const next = Number(current) + 1;
        if (!INTEGER.test(current) || !Number.isSafeInteger(next)) throw new Error(NOT_AN_INTEGER);
        this.write(key, String(next), entry?.expiresAt ?? null);
        return next;
      },
    };
    this.subscriber = this.createSubscriber();
  }

  /** Another subscriber on the same bus, like a second Redis connection. */
  createSubscriber(): Subscriber {
    // Per channel one callback, a later subscribe replacing it (as resumable-stream's ioredis adapter does).
    const own = new Map<string, Subscription>();
    return {
      connect: async () => this.assertOpen(),
      subscribe: async (channel, callback) => {
        this.assertOpen();
        const existing = own.get(channel);
        if (existing) {
          existing.callback = callback;
          return;
        }
        const subscription: Subscription = { callback, active: true };
        own.set(channel, subscription);
        const subscribers = this.channels.get(channel) ?? new Set<Subscription>();
        subscribers.add(subscription);
        this.channels.set(channel, subscribers);
      },
      // Works after close() too: it is the runtime's cleanup path, and there is nothing left to undo.
      unsubscribe: async (channel) => {
        const subscription = own.get(channel);
        if (!subscription) return;
        own.delete(channel);
        // Messages already queued for it are dropped, as the ioredis adapter drops them.
        subscription.active = false;
        const subscribers = this.channels.get(channel);
        subscribers?.delete(subscription);
        if (subscribers?.size === 0) this.channels.delete(channel);
      },
    };
  }

  /** Keys held, including expired ones not yet swept (bounded by the sweep). */
  get keyCount(): number {
    return this.entries.size;
  }

  /** Removes every expired key; the sweep timer calls it and stops once no key has an expiry. */
  sweep(): void {
    const now = Date.now();
    for (const key of this.expiring) {
      const entry = this.entries.get(key);
      if (entry?.expiresAt != null && entry.expiresAt <= now) this.delete(key);
    }
    if (this.expiring.size === 0) this.stopSweeping();
  }

  /** Drops all keys, subscriptions and queued messages and stops the sweep timer; later calls reject. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopSweeping();
    this.entries.clear();
    this.expiring.clear();
    for (const subscribers of this.channels.values()) for (const subscription of subscribers) subscription.active = false;
    this.channels.clear();
    this.queue = [];
  }

  private publish(channel: string, message: string): number {
    this.assertOpen();
    // The receivers are those subscribed now, as Redis decides when it handles the PUBLISH.
    const subscribers = this.channels.get(channel);
    if (!subscribers) return 0;
    for (const subscription of subscribers) this.queue.push({ subscription, message });
    if (!this.drainScheduled) {
      this.drainScheduled = true;
      queueMicrotask(() => this.drain());
    }
    return subscribers.size;
  }

  /** Delivers queued messages in order, including those published by the callbacks themselves. */
  private drain(): void {
    this.drainScheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      for (const { subscription, message } of batch) {
        if (!subscription.active) continue;
        try {
          // The runtime's callbacks are async: report their rejections instead of leaving them unhandled.
          Promise.resolve(subscription.callback(message)).catch(this.onCallbackError);
        } catch (error) {
          this.onCallbackError(error);
        }
      }
    }
  }

  private read(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry?.expiresAt != null && entry.expiresAt <= Date.now()) {
      this.delete(key);
      return undefined;
    }
    return entry;
  }

  private write(key: string, value: string, expiresAt: number | null): void {
    this.entries.set(key, { value, expiresAt });
    if (expiresAt === null) {
      this.expiring.delete(key);
      return;
    }
    this.expiring.add(key);
    if (!this.sweepTimer) {
      this.sweepTimer = setInterval(() => this.sweep(), this.sweepIntervalMs);
      // Expiry housekeeping alone must not keep the process alive.
      this.sweepTimer.unref?.();
    }
  }

  private delete(key: string): void {
    this.entries.delete(key);
    this.expiring.delete(key);
  }

  private stopSweeping(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('memory pub/sub is closed');
  }
}
