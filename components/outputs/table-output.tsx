'use client';

import type { TableData } from '@/lib/runtime/protocol';

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function toCsv(table: TableData): string {
  const names = table.schema.fields.map((f) => f.name);
  const escape = (s: string) => (/[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  const rows = table.data.map((row) => names.map((n) => escape(cellText(row[n]))).join(','));
  return [names.map(escape).join(','), ...rows].join('\n');
}

/** A table output: sticky header, numbers right-aligned, horizontal scroll, copy as CSV. */
export function TableOutput({ table }: { table: TableData }) {
  const numeric = new Set(table.schema.fields.filter((f) => f.type === 'integer' || f.type === 'number').map((f) => f.name));
  const [totalRows, totalColumns] = table.shape ?? [table.data.length, table.schema.fields.length];
  return (
    <div data-output="table" className="my-2">
      <div className="max-h-96 overflow-auto rounded border border-zinc-200 dark:border-zinc-700">
        <table className="min-w-full border-collapse text-[13px]">
          <thead className="sticky top-0 bg-zinc-100 dark:bg-zinc-800">
            <tr>
              {table.schema.fields.map((field) => (
                <th key={field.name} scope="col" className={`whitespace-nowrap px-2 py-1 font-semibold ${numeric.has(field.name) ? 'text-right' : 'text-left'}`}>
                  {field.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.data.map((row, i) => (
              <tr key={i} className="border-t border-zinc-100 dark:border-zinc-800">
                {table.schema.fields.map((field) => (
                  <td key={field.name} className={`whitespace-nowrap px-2 py-0.5 font-mono ${numeric.has(field.name) ? 'text-right tabular-nums' : ''}`}>
                    {cellText(row[field.name])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-1 flex gap-3 text-xs text-zinc-500">
        <span>
          showing {table.data.length === 0 ? 0 : 1}–{table.data.length.toLocaleString()} of {totalRows.toLocaleString()} rows
          {totalColumns > table.schema.fields.length ? `, ${table.schema.fields.length} of ${totalColumns} columns` : ''}
        </span>
        <button type="button" className="underline" onClick={() => void navigator.clipboard.writeText(toCsv(table))}>
          Copy as CSV
        </button>
      </div>
    </div>
  );
}
