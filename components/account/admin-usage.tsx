'use client';
/** The admin page's usage: model tokens and their cost over a period, by person and by model, and a CSV of it. */
import { useEffect, useState } from 'react';
import { formatCount, formatUsd } from '@/lib/format';
import { failureWords, readJsonAs } from '@/lib/http/error-body.client';
import { USAGE_PERIODS, type UsagePeriod } from '@/lib/usage/periods';
import { usageReportSchema, type UsageLine, type UsageReport } from '@/lib/usage/usage-report';

const PERIODS = Object.entries(USAGE_PERIODS) as Array<[UsagePeriod, (typeof USAGE_PERIODS)[UsagePeriod]]>;

type Loaded = { period: UsagePeriod; report: UsageReport } | { period: UsagePeriod; error: string };

export function AdminUsage() {
  const [period, setPeriod] = useState<UsagePeriod>('24h');
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    let current = true;
    void (async () => {
      const response = await fetch(`/api/admin/usage?period=${period}`).catch(() => null);
      const report = response?.ok ? await readJsonAs(response, usageReportSchema) : null;
      const error = response?.ok ? 'Usage could not be read from the server’s answer. Reload the page.' : await failureWords(response, 'Usage could not be loaded: Runpad could not be reached. Reload the page.');
      const result: Loaded = report ? { period, report } : { period, error };
      if (current) setLoaded(result);
    })();
    return () => {
      current = false;
    };
  }, [period]);

  const report = loaded && loaded.period === period && 'report' in loaded ? loaded.report : null;
  return (
    <section aria-labelledby="usage-heading" className="mt-10">
      <h2 id="usage-heading" className="text-xl font-semibold">
        Usage
      </h2>
      <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
        {PERIODS.map(([value, { label }]) => (
          <button
            key={value}
            type="button"
            aria-pressed={period === value}
            onClick={() => setPeriod(value)}
            className="rounded border border-zinc-300 px-2 py-0.5 aria-pressed:bg-zinc-900 aria-pressed:text-white dark:border-zinc-700 dark:aria-pressed:bg-zinc-100 dark:aria-pressed:text-zinc-900"
          >
            {label}
          </button>
        ))}
        <a href={`/api/admin/usage?period=${period}&format=csv`} download className="ml-auto text-blue-700 underline dark:text-blue-300">
          Download CSV
        </a>
      </div>
      {loaded && loaded.period === period && 'error' in loaded && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {loaded.error}
        </p>
      )}
      {!loaded || loaded.period !== period ? (
        <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">Loading usage…</p>
      ) : (
        report && <UsageTables report={report} />
      )}
    </section>
  );
}

function UsageTables({ report }: { report: UsageReport }) {
  const { totals } = report;
  return (
    <div data-testid="usage" data-period={report.period}>
      <p className="mt-3 text-sm" data-testid="usage-totals">
        {report.periodLabel}: {formatCount(totals.requests)} requests, {formatCount(totals.inputTokens)} input and {formatCount(totals.outputTokens)} output tokens, {formatUsd(totals.costUsd)}.
      </p>
      {report.unpricedModels.length > 0 && (
        <p className="mt-1 text-sm text-amber-800 dark:text-amber-300">
          No price is set for {report.unpricedModels.join(', ')}: its tokens are not in the cost. Set a &quot;price&quot; on its RUNPAD_MODELS entry.
        </p>
      )}
      <UsageTable caption="By person" rows={report.byPerson.map((row) => ({ key: row.personId ?? 'deleted', name: row.person, line: row }))} />
      <UsageTable
        caption="By model"
        rows={report.byModel.map((row) => ({ key: row.modelId, name: row.label, line: row, note: row.price ? `${formatUsd(row.price.input)} / ${formatUsd(row.price.output)} per million tokens` : 'no price set' }))}
      />
    </div>
  );
}

function UsageTable({ caption, rows }: { caption: string; rows: Array<{ key: string; name: string; line: UsageLine; note?: string }> }) {
  return (
    <table className="mt-4 w-full text-left text-sm">
      <caption className="text-left font-medium">{caption}</caption>
      <thead>
        <tr className="border-b border-zinc-300 dark:border-zinc-700">
          <th className="py-2">{caption === 'By person' ? 'Person' : 'Model'}</th>
          <th>Requests</th>
          <th>Input tokens</th>
          <th>Output tokens</th>
          <th>Cost</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && (
          <tr>
            <td colSpan={5} className="py-2 text-zinc-600 dark:text-zinc-400">
              No model requests in this period.
            </td>
          </tr>
        )}
        {rows.map(({ key, name, line, note }) => (
          <tr key={key} className="border-b border-zinc-200 dark:border-zinc-800" data-usage-row={name}>
            <td className="py-2">
              {name}
              {note && <span className="ml-2 text-xs text-zinc-600 dark:text-zinc-400">{note}</span>}
            </td>
            <td>{formatCount(line.requests)}</td>
            <td>{formatCount(line.inputTokens)}</td>
            <td>{formatCount(line.outputTokens)}</td>
            <td>{line.unpricedTokens > 0 && line.unpricedTokens === line.inputTokens + line.outputTokens ? '—' : formatUsd(line.costUsd)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
