/** The periods the admin page shows usage over, each ending now. Shared by the page and the API. */
import { z } from 'zod';

export const USAGE_PERIODS = {
  '24h': { label: 'Last 24 hours', ms: 24 * 60 * 60 * 1000 },
  '7d': { label: 'Last 7 days', ms: 7 * 24 * 60 * 60 * 1000 },
  '30d': { label: 'Last 30 days', ms: 30 * 24 * 60 * 60 * 1000 },
} as const;

export type UsagePeriod = keyof typeof USAGE_PERIODS;
export const usagePeriodSchema = z.enum(Object.keys(USAGE_PERIODS) as [UsagePeriod, ...UsagePeriod[]]);

/** When a period that ends at `now` began. */
export function periodStart(period: UsagePeriod, now: Date = new Date()): Date {
  return new Date(now.getTime() - USAGE_PERIODS[period].ms);
}
