/**
 * What one model request counts against, as rules and counters for RateLimits.consumeEvery: the
 * person's minute and day (an admin's numbers for that person replace the defaults but count on
 * the same counters), the client address's day, and the instance's day when the operator set a
 * ceiling. All in one consumeEvery call, so a request any of them refuses keeps no point of the
 * others: refused by the address or the instance, the person gets their point back.
 */
import 'server-only';
import type { AppConfig } from '@/lib/config.server';
import type { LimitCounter, LimitRules } from './rate-limits.server';

export type LimitSettings = Pick<AppConfig['limits'], 'modelRequestsPerMinute' | 'modelRequestsPerDay' | 'guestsPerAddressPerHour' | 'modelRequestsPerAddressPerDay' | 'instanceModelRequestsPerDay'>;
export type PersonalLimits = { modelRequestsPerMinute: number | null; modelRequestsPerDay: number | null };

const DAY_S = 86_400;
/** The key of the instance-wide counter. */
export const INSTANCE_KEY = 'instance';

/** Every kind the instance counts, with a person's own numbers when they have any. */
export function limitRules(settings: LimitSettings, personal: PersonalLimits = { modelRequestsPerMinute: null, modelRequestsPerDay: null }): LimitRules {
  return {
    'model-per-minute': { points: personal.modelRequestsPerMinute ?? settings.modelRequestsPerMinute, durationSeconds: 60 },
    'model-per-day': { points: personal.modelRequestsPerDay ?? settings.modelRequestsPerDay, durationSeconds: DAY_S },
    'guests-per-address': { points: settings.guestsPerAddressPerHour, durationSeconds: 3_600 },
    'model-per-address': { points: settings.modelRequestsPerAddressPerDay, durationSeconds: DAY_S },
    ...(settings.instanceModelRequestsPerDay ? { 'model-instance': { points: settings.instanceModelRequestsPerDay, durationSeconds: DAY_S } } : {}),
  };
}

/** The counters one model request takes a point from: the person's first, then the address's, then the instance's. */
export function modelRequestCounters(personId: string, address: string, settings: Pick<LimitSettings, 'instanceModelRequestsPerDay'>): LimitCounter[] {
  return [
    { kind: 'model-per-minute', key: personId },
    { kind: 'model-per-day', key: personId },
    { kind: 'model-per-address', key: address },
    ...(settings.instanceModelRequestsPerDay ? [{ kind: 'model-instance' as const, key: INSTANCE_KEY }] : []),
  ];
}
