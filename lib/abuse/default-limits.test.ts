/**
 * The limits a model request meets on an instance whose operator set none: the numbers come from
 * the configuration's defaults (lib/config.server.ts), counted as the app counts them.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { limitRules, modelRequestCounters } from './model-request-limits.server';
import { createRateLimits } from './rate-limits.server';

const LIMIT_VARIABLES = ['RUNPAD_MODEL_REQUESTS_PER_MINUTE', 'RUNPAD_MODEL_REQUESTS_PER_DAY', 'RUNPAD_MODEL_REQUESTS_PER_ADDRESS_PER_DAY', 'RUNPAD_INSTANCE_MODEL_REQUESTS_PER_DAY'];

async function unconfiguredLimits() {
  vi.resetModules();
  for (const name of LIMIT_VARIABLES) vi.stubEnv(name, '');
  const { getConfig } = await import('@/lib/config.server');
  return getConfig().limits;
}
afterEach(() => vi.unstubAllEnvs());

describe('an instance with no limits configured', () => {
  it("refuses a person's 21st model request within a minute, and says when to try again", async () => {
    const settings = await unconfiguredLimits();
    const limits = await createRateLimits({ store: 'memory', rules: limitRules(settings) });
    const counters = modelRequestCounters('person', '203.0.113.5', settings);
    for (let i = 0; i < 20; i += 1) expect((await limits.consumeEvery(counters)).ok).toBe(true);
    const refused = await limits.consumeEvery(counters);
    expect(refused).toMatchObject({ ok: false, kind: 'model-per-minute' });
    if (refused.ok) throw new Error('unreachable');
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Another person is not held by the first one's count.
    expect((await limits.consumeEvery(modelRequestCounters('someone else', '198.51.100.5', settings))).ok).toBe(true);
    await limits.close();
  });

  it("refuses a person's 501st model request within a day, and counts no instance ceiling", async () => {
    const settings = await unconfiguredLimits();
    expect(modelRequestCounters('person', '203.0.113.5', settings).map((c) => c.kind)).not.toContain('model-instance');
    const limits = await createRateLimits({ store: 'memory', rules: limitRules(settings) });
    for (let i = 0; i < 500; i += 1) expect((await limits.consume('model-per-day', 'person')).ok).toBe(true);
    expect(await limits.consume('model-per-day', 'person')).toMatchObject({ ok: false, kind: 'model-per-day' });
    await limits.close();
  });
});
