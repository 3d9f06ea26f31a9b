/**
 * The kinds beyond the per-person pair (per address, per instance) and per-person numbers that
 * override the defaults while counting on the same counters, on PGlite (the store every kind
 * shares; rate-limits.test.ts runs the store matrix).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '@/lib/db/client.server';
import { createRateLimits, type RateLimits } from './rate-limits.server';

describe('limit kinds and per-person overrides', () => {
  let handle: DbHandle;
  const opened: RateLimits[] = [];
  const keyPrefix = `kinds-${crypto.randomUUID()}`;
  const open = async (rules: Parameters<typeof createRateLimits>[0]['rules']) => {
    const limits = await createRateLimits({ store: 'postgres', db: handle.db, rules, keyPrefix });
    opened.push(limits);
    return limits;
  };

  beforeAll(async () => {
    handle = await createDb({ dataDir: null });
  });
  afterAll(async () => {
    for (const limits of opened) await limits.close();
    await handle.close();
  });

  it('counts only the kinds it has rules for, and says so for any other', async () => {
    const limits = await open({ 'guests-per-address': { points: 2, durationSeconds: 3600 } });
    expect((await limits.consume('guests-per-address', '203.0.113.9')).ok).toBe(true);
    expect((await limits.consume('guests-per-address', '203.0.113.9')).ok).toBe(true);
    const third = await limits.consume('guests-per-address', '203.0.113.9');
    expect(third).toMatchObject({ ok: false, kind: 'guests-per-address' });
    expect((await limits.consume('guests-per-address', '198.51.100.7')).ok).toBe(true);
    await expect(limits.consume('model-instance', 'instance')).rejects.toThrow('no rate limit rule for model-instance');
  });

  it('a person with their own smaller number is held to it on the counter the defaults use', async () => {
    const defaults = await open({ 'model-per-minute': { points: 100, durationSeconds: 60 }, 'model-per-day': { points: 100, durationSeconds: 86_400 } });
    const ownNumbers = await open({ 'model-per-minute': { points: 100, durationSeconds: 60 }, 'model-per-day': { points: 2, durationSeconds: 86_400 } });
    const person = crypto.randomUUID();
    expect((await defaults.consumeAll(['model-per-minute', 'model-per-day'], person)).ok).toBe(true);
    expect((await ownNumbers.consumeAll(['model-per-minute', 'model-per-day'], person)).ok).toBe(true);
    expect(await ownNumbers.consumeAll(['model-per-minute', 'model-per-day'], person)).toMatchObject({ ok: false, kind: 'model-per-day' });
    // The defaults still allow this person more: the override is what the app applies to them.
    expect((await defaults.consumeAll(['model-per-minute', 'model-per-day'], person)).ok).toBe(true);
  });

  it('refuses rules sets that are empty or malformed', async () => {
    await expect(open({})).rejects.toThrow('at least one rule');
    await expect(open({ 'model-instance': { points: 0, durationSeconds: 60 } })).rejects.toThrow('positive integer');
  });
});
