import { z } from 'zod';
import { getConfig } from '@/lib/config.server';
import { getDb } from '@/lib/db/client.server';
import { usageTotalsSince } from '@/lib/db/queries/usage.server';
import { AppError } from '@/lib/errors.server';
import { route } from '@/lib/http/route.server';
import { requireAdmin } from '@/lib/http/session.server';
import { attachmentDisposition } from '@/lib/notebook/load-export.server';
import { periodStart, usagePeriodSchema } from '@/lib/usage/periods';
import { buildUsageReport, usageCsv } from '@/lib/usage/usage-report';

export const runtime = 'nodejs';

const querySchema = z.strictObject({ period: usagePeriodSchema.default('24h'), format: z.enum(['json', 'csv']).default('json') });

/** Admins: model usage over a period (?period=24h|7d|30d), by person and by model; ?format=csv downloads it. */
export const GET = route(async ({ request }) => {
  await requireAdmin();
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw new AppError('request:invalid', { message: 'Ask for usage with period=24h, 7d or 30d, and format=json or csv.', reason: 'malformed usage query' });
  const { period, format } = parsed.data;
  const until = new Date();
  const since = periodStart(period, until);
  const report = buildUsageReport(await usageTotalsSince(await getDb(), since), getConfig().models.models, period, since, until);
  const headers = { 'cache-control': 'private, no-store' };
  if (format === 'json') return Response.json(report, { headers });
  return new Response(usageCsv(report), {
    headers: {
      ...headers,
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': attachmentDisposition(`runpad-usage-${period}-${until.toISOString().slice(0, 10)}.csv`),
      'x-content-type-options': 'nosniff',
    },
  });
});
