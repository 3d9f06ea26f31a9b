'use client';

import { useId } from 'react';
import type { TableData } from '@/lib/runtime/protocol';
import { PAGE_SIZES, plural, count, useTableOutput, type PageSize } from './use-table-output';
import { TableGrid } from './table-grid';
import type { CellHighlight } from './highlight';

const buttonClass =
  'inline-flex h-7 items-center gap-1 rounded border border-zinc-300 bg-white px-2 text-xs font-medium text-zinc-800 hover:bg-zinc-100 disabled:cursor-not-allowed disabled:opacity-50 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800';

type ToolbarProps = {
  shape: string;
  cappedText: string;
  total: number;
  filter: string;
  onFilter: (value: string) => void;
  copy: { status: 'idle' | 'copied' | 'failed'; rows: number };
  copyRows: () => Promise<void>;
  downloadCsv: () => void;
};

/** Above the table: its size, the filter, Copy and Download CSV. */
function TableToolbar({ shape, cappedText, total, filter, onFilter, copy, copyRows, downloadCsv }: ToolbarProps) {
  const ids = useId();
  const filterId = `${ids}-filter`;
  const hintId = `${ids}-hint`;
  return (
    <div className="mb-1.5 flex flex-wrap items-center gap-x-3 gap-y-1.5 text-xs">
      <p className="mr-auto text-zinc-600 dark:text-zinc-300">
        <span className="font-medium text-zinc-800 dark:text-zinc-100">{shape}</span>
        {cappedText && <span> · {cappedText}</span>}
      </p>
      <div className="flex min-w-0 flex-wrap items-center gap-1.5 max-sm:w-full">
        <label htmlFor={filterId} className="sr-only">
          Filter rows
        </label>
        <input
          id={filterId}
          type="search"
          value={filter}
          onChange={(e) => onFilter(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && filter !== '') {
              e.preventDefault();
              onFilter('');
            }
          }}
          placeholder="Filter rows… (or column:value)"
          aria-describedby={hintId}
          spellCheck={false}
          autoComplete="off"
          className="h-7 w-56 min-w-0 rounded border max-sm:flex-1 border-zinc-300 bg-white px-2 text-xs text-zinc-900 placeholder:text-zinc-500 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400"
        />
        <span id={hintId} className="sr-only">
          Matches text in any column; type a column name and a colon, as in city:paris, to search one column. Escape clears.
        </span>
        <button
          type="button"
          onClick={() => void copyRows()}
          className={`${buttonClass} ${copy.status === 'copied' ? 'border-emerald-600 text-emerald-800 dark:border-emerald-500 dark:text-emerald-300' : ''}`}
          title={`Copy ${plural(total, 'row')} as tab-separated text`}
        >
          {copy.status === 'copied' ? (
            <>
              <span aria-hidden="true">✓</span> Copied
            </>
          ) : copy.status === 'failed' ? (
            'Copy failed'
          ) : (
            'Copy'
          )}
        </button>
        <button type="button" onClick={downloadCsv} className={buttonClass} title={`Download ${plural(total, 'row')} as table.csv`}>
          Download CSV
        </button>
        <span role="status" className="sr-only">
          {copy.status === 'copied' ? `Copied ${plural(copy.rows, 'row')} to the clipboard.` : copy.status === 'failed' ? 'Could not copy to the clipboard.' : ''}
        </span>
      </div>
    </div>
  );
}

type PagerProps = { rangeText: string; pageSize: PageSize; onPageSize: (value: string) => void; virtualised: boolean; page: number; pages: number; onPage: (page: number) => void };

/** Below the table: the range shown, rows per page, Previous and Next. */
function TablePager({ rangeText, pageSize, onPageSize, virtualised, page, pages, onPage }: PagerProps) {
  const pageSizeId = `${useId()}-page-size`;
  return (
    <div className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1.5 text-xs text-zinc-600 dark:text-zinc-300">
      <p role="status" className="mr-auto tabular-nums">
        {rangeText}
      </p>
      <div className="flex items-center gap-1.5">
        <label htmlFor={pageSizeId}>Rows per page</label>
        <select
          id={pageSizeId}
          value={String(pageSize)}
          onChange={(e) => onPageSize(e.target.value)}
          className="h-7 rounded border border-zinc-300 bg-white px-1 text-xs text-zinc-900 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={String(size)}>
              {size === 'all' ? 'All (scroll)' : size}
            </option>
          ))}
        </select>
      </div>
      {!virtualised && (
        <div className="flex items-center gap-1.5">
          <button type="button" onClick={() => onPage(page - 1)} disabled={page === 0} className={buttonClass}>
            Previous
          </button>
          <span className="tabular-nums">
            Page {count.format(page + 1)} of {count.format(pages)}
          </span>
          <button type="button" onClick={() => onPage(page + 1)} disabled={page >= pages - 1} className={buttonClass}>
            Next
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * A table output (a pandas DataFrame): sortable headers, a filter, paging or a windowed "All
 * rows" view, Copy as TSV and Download CSV of the filtered rows, and a sticky index column.
 */
export function TableOutput({ table, highlight }: { table: TableData; highlight?: CellHighlight }) {
  const { total, toolbar, grid, pager } = useTableOutput(table, highlight);
  return (
    <div data-output="table" data-testid="table-output" data-row-count={total} className="my-2 text-zinc-900 dark:text-zinc-100">
      <TableToolbar {...toolbar} />
      <TableGrid {...grid} />
      <TablePager {...pager} />
    </div>
  );
}
