/**
 * A period's usage as the admin page shows it and the CSV carries it: totals, by person, by model,
 * from the per-person-and-model sums of lib/db/queries/usage.server.ts. Pure (unit-tested).
 */
import { z } from 'zod';
import type { ModelEntry } from '@/lib/model-catalog.server';
import type { UsageTotalsRow } from '@/lib/db/queries/usage.server';
import { USAGE_PERIODS, usagePeriodSchema, type UsagePeriod } from './periods';

const count = z.number().int().nonnegative();
const usageLineSchema = z.object({ requests: count, inputTokens: count, outputTokens: count, costUsd: z.number().nonnegative(), unpricedTokens: count });
const priceSchema = z.object({ input: z.number(), output: z.number() }).nullable();

/** The report as the API sends it; the admin page reads it through this schema. */
export const usageReportSchema = z.object({
  period: usagePeriodSchema,
  periodLabel: z.string(),
  /** ISO times: the period is (since, until]. */
  since: z.string(),
  until: z.string(),
  totals: usageLineSchema,
  byPerson: z.array(usageLineSchema.extend({ personId: z.string().nullable(), person: z.string() })),
  byModel: z.array(usageLineSchema.extend({ modelId: z.string(), label: z.string(), price: priceSchema })),
  /** Labels of the models whose tokens had no price (their cost is not in the totals). */
  unpricedModels: z.array(z.string()),
  /** One line per person and model: the CSV's rows. */
  lines: z.array(usageLineSchema.extend({ personId: z.string().nullable(), person: z.string(), modelId: z.string(), label: z.string() })),
});

export type UsageReport = z.infer<typeof usageReportSchema>;
export type UsageLine = z.infer<typeof usageLineSchema>;
type PersonUsage = UsageReport['byPerson'][number];
type ModelUsage = UsageReport['byModel'][number];

type CatalogModel = Pick<ModelEntry, 'id' | 'label' | 'price'>;

const empty = (): UsageLine => ({ requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedTokens: 0 });

function add(into: UsageLine, line: UsageLine): void {
  into.requests += line.requests;
  into.inputTokens += line.inputTokens;
  into.outputTokens += line.outputTokens;
  into.costUsd += line.costUsd;
  into.unpricedTokens += line.unpricedTokens;
}

/** How a person is named: their email, a guest's short id, or a deleted person. */
export function personName(personId: string | null, email: string | null): string {
  return email ?? (personId ? `Guest ${personId.slice(0, 8)}` : 'Deleted person');
}

/** Most cost first, then most tokens. */
const byCost = (a: UsageLine, b: UsageLine) => b.costUsd - a.costUsd || b.inputTokens + b.outputTokens - (a.inputTokens + a.outputTokens);

export function buildUsageReport(rows: UsageTotalsRow[], models: CatalogModel[], period: UsagePeriod, since: Date, until: Date): UsageReport {
  const catalog = new Map(models.map((m) => [m.id, m]));
  const totals = empty();
  const people = new Map<string, PersonUsage>();
  const perModel = new Map<string, ModelUsage>();
  const lines: UsageReport['lines'] = [];
  for (const row of rows) {
    const line: UsageLine = { requests: row.requests, inputTokens: row.inputTokens, outputTokens: row.outputTokens, costUsd: row.costUsd, unpricedTokens: row.unpricedTokens };
    const person = personName(row.personId, row.email);
    // A model no longer offered keeps its id as its name.
    const model = catalog.get(row.modelId);
    const label = model?.label ?? row.modelId;
    add(totals, line);
    const personKey = row.personId ?? '';
    if (!people.has(personKey)) people.set(personKey, { ...empty(), personId: row.personId, person });
    add(people.get(personKey)!, line);
    if (!perModel.has(row.modelId)) perModel.set(row.modelId, { ...empty(), modelId: row.modelId, label, price: model?.price ?? null });
    add(perModel.get(row.modelId)!, line);
    lines.push({ ...line, personId: row.personId, person, modelId: row.modelId, label });
  }
  const byModel = [...perModel.values()].sort(byCost);
  return {
    period,
    periodLabel: USAGE_PERIODS[period].label,
    since: since.toISOString(),
    until: until.toISOString(),
    totals,
    byPerson: [...people.values()].sort(byCost),
    byModel,
    unpricedModels: byModel.filter((m) => m.unpricedTokens > 0).map((m) => m.label),
    lines: lines.sort((a, b) => a.person.localeCompare(b.person) || a.label.localeCompare(b.label)),
  };
}

const CSV_COLUMNS = ['period_start', 'period_end', 'person', 'person_id', 'model', 'model_id', 'requests', 'input_tokens', 'output_tokens', 'cost_usd', 'unpriced_tokens'] as const;

/**
 * One field: quoted when it holds a separator, a quote or a line break; a text a spreadsheet
 * would run as a formula (=, +, -, @ first) is prefixed with an apostrophe.
 */
function csvField(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The report's lines as CSV (RFC 4180, CRLF). A cost is empty when none of its tokens had a price. */
export function usageCsv(report: UsageReport): string {
  const rows = report.lines.map((line) => [
    report.since,
    report.until,
    line.person,
    line.personId ?? '',
    line.label,
    line.modelId,
    line.requests,
    line.inputTokens,
    line.outputTokens,
    line.unpricedTokens > 0 && line.unpricedTokens === line.inputTokens + line.outputTokens ? '' : line.costUsd.toFixed(6),
    line.unpricedTokens,
  ]);
  return [CSV_COLUMNS, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
