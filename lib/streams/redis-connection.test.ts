import { describe, expect, it } from 'vitest';
import { closeRedis, openRedis } from './redis-connection.server';
import { redisUnavailable, signal, TEST_REDIS_URL, uniquePrefix, withRedis } from '../testing/streams';

const skip = await redisUnavailable();
if (skip) console.warn(`redis-connection tests skipped: ${skip}`);

describe.skipIf(skip)('openRedis', () => {
  it('a subscriber that subscribes as its socket opens becomes ready without an error and gets its messages', async () => {
    const client = openRedis(TEST_REDIS_URL, 'runpad-test-subscriber');
    const errors: unknown[] = [];
    client.on('error', (error: unknown) => errors.push(error));
    const channel = uniquePrefix('subscribe-on-connect');
    const received = signal<string>();
    client.on('message', (from: string, message: string) => {
      if (from === channel) received.resolve(message);
    });
    // SUBSCRIBE may be written while the connection is still in its handshake: a page resuming a
    // stream at the moment Redis comes back does exactly this.
    const subscribed = new Promise<unknown>((resolve, reject) => client.once('connect', () => client.subscribe(channel).then(resolve, reject)));
    try {
      await subscribed;
      await withRedis((publisher) => publisher.publish(channel, 'hello'));
      expect(await received.promise).toBe('hello');
      expect(errors).toEqual([]);
    } finally {
      await closeRedis(client);
    }
  });
});
