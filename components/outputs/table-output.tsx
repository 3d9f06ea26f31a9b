'use client';

import { useId, type CSSProperties } from 'react';
import type { TableData } from '@/lib/runtime/protocol';
import { formatCell, type Cell, type SortState } from '@/lib/tables/table-view';
import { PAGE_SIZES, ROW_HEIGHT, plural, count, useTableOutput, type Layout } from './use-table-output';
import type { CellHighlight } from './highlight';

function ariaSort(sort: SortState, column: string): 'ascending' | 'descending' | 'none' {
  if (sort?.column !== column) return 'none';
  return sort.direction === 'asc' ? 'ascending' : 'descending';
}

function SortIcon({ direction }: { direction: 'ascending' | 'descending' | 'none' }) {
  const glyph = direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕';
  const tone = direction === 'none' ? 'text-zinc-500 opacity-0 group-hover:opacity-100 group-focus-visible:opacity-100 dark:text-zinc-400' : 'text-blue-700 dark:text-blue-300';
  return (
    <span aria-hidden="true" className={`shrink-0 text-[10px] ${tone}`}>
      {glyph}
    </span>
  );
}

/** A formatted cell; null shows a muted dash (and reads "empty"). */
function CellContent({ value, text }: { value: Cell | undefined; text: string }) {
  if (value === null || value === undefined) {
    return (
      <>
        <span aria-hidden="true" className="text-zinc-500 dark:text-zinc-400">
          —
        </span>
        <span className="sr-only">empty</span>
      </>
    );
  }
  return <>{text}</>;
}

const buttonClass =
  'inline-flex h-7 items-center gap-1 rounded border border-zinc-300 bg-white px-2 text-xs font-medium text-zinc-800 hover:bg-zinc-100 disabled:cursor-not-allowed disabled:opacity-50 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800';

/**
 * A table output (a pandas DataFrame): sortable headers, a filter, paging or a windowed "All
 * rows" view, Copy as TSV and Download CSV of the filtered rows, and a sticky index column.
 */
export function TableOutput({ table, highlight }: { table: TableData; highlight?: CellHighlight }) {
  const {
    sort,
    filter,
    deferredFilter,
    filtered,
    pageSize,
    virtualised,
    view,
    layouts,
    tableWidth,
    virtual,
    marked,
    focusMarked,
    copy,
    scrollRef,
    shape,
    cappedText,
    rangeText,
    sortText,
    bodyRows,
    bodyOffset,
    changeFilter,
    changePage,
    changePageSize,
    sortBy,
    copyRows,
    downloadCsv,
  } = useTableOutput(table, highlight);
  const ids = useId();
  const captionId = `${ids}-caption`;
  const filterId = `${ids}-filter`;
  const hintId = `${ids}-hint`;
  const pageSizeId = `${ids}-page-size`;
  const columnCount = Math.max(1, layouts.length);
  const stickyLeft = (layout: Layout): CSSProperties | undefined => (layout.left === null ? undefined : { left: layout.left });

  return (
    <div data-output="table" data-testid="table-output" data-row-count={view.total} className="my-2 text-zinc-900 dark:text-zinc-100">
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
            onChange={(e) => changeFilter(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && filter !== '') {
                e.preventDefault();
                changeFilter('');
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
            title={`Copy ${plural(view.total, 'row')} as tab-separated text`}
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
          <button type="button" onClick={downloadCsv} className={buttonClass} title={`Download ${plural(view.total, 'row')} as table.csv`}>
            Download CSV
          </button>
          <span role="status" className="sr-only">
            {copy.status === 'copied' ? `Copied ${plural(copy.rows, 'row')} to the clipboard.` : copy.status === 'failed' ? 'Could not copy to the clipboard.' : ''}
          </span>
        </div>
      </div>

      <div
        ref={scrollRef}
        role="region"
        aria-labelledby={captionId}
        tabIndex={0}
        className="max-h-[min(28rem,60dvh)] overflow-auto rounded border border-zinc-200 dark:border-zinc-700"
      >
        <table
          className="table-fixed border-separate border-spacing-0 text-[13px]"
          style={{ width: tableWidth || '100%' }}
          aria-rowcount={view.total + 1}
        >
          <caption id={captionId} className="sr-only">
            Table, {shape}
            {cappedText ? `, ${cappedText}` : ''}
            {sortText}
          </caption>
          <colgroup>
            {layouts.map((l) => (
              <col key={l.column.name} style={{ width: l.width }} />
            ))}
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
              {layouts.map((layout) => {
                const { column } = layout;
                const state = ariaSort(sort, column.name);
                return (
                  <th
                    key={column.name}
                    scope="col"
                    aria-sort={state}
                    style={stickyLeft(layout)}
                    className={`sticky top-0 h-8 border-b border-zinc-300 p-0 font-semibold dark:border-zinc-600 ${
                      column.index ? 'z-30 bg-zinc-200 dark:bg-zinc-700' : 'z-20 bg-zinc-100 dark:bg-zinc-800'
                    } ${layout.lastIndex ? 'border-r' : ''}`}
                  >
                    <button
                      type="button"
                      onClick={() => sortBy(column.name)}
                      title={layout.headerFits ? undefined : column.name}
                      className={`group flex h-8 w-full items-center gap-1 px-2 hover:bg-black/5 focus-visible:-outline-offset-2 dark:hover:bg-white/10 ${
                        column.align === 'right' ? 'flex-row-reverse text-right' : 'text-left'
                      }`}
                    >
                      <span className="truncate">{column.name}</span>
                      <SortIcon direction={state} />
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {virtualised && virtual.before > 0 && (
              <tr aria-hidden="true" data-spacer="before" style={{ height: virtual.before }}>
                <td colSpan={columnCount} className="p-0" />
              </tr>
            )}
            {bodyRows.map((row, i) => {
              const position = bodyOffset + i;
              const original = view.rowIndices[position];
              return (
                <tr
                  key={original}
                  data-row={original}
                  aria-rowindex={view.start + position + 2}
                  style={{ height: ROW_HEIGHT }}
                  className="group/row"
                >
                  {layouts.map((layout) => {
                    const { column } = layout;
                    const value = row[column.name];
                    const text = formatCell(value, column.type);
                    const title = text.length > layout.chars ? text : undefined;
                    const base = `h-7 overflow-hidden text-ellipsis whitespace-nowrap border-b border-zinc-100 px-2 py-0 font-mono dark:border-zinc-800 ${
                      column.align === 'right' ? 'text-right tabular-nums' : 'text-left'
                    }`;
                    if (column.index) {
                      return (
                        <th
                          key={column.name}
                          scope="row"
                          title={title}
                          style={stickyLeft(layout)}
                          className={`${base} sticky z-10 bg-zinc-50 font-medium text-zinc-700 dark:bg-zinc-900 dark:text-zinc-300 ${
                            layout.lastIndex ? 'border-r border-r-zinc-300 dark:border-r-zinc-600' : ''
                          }`}
                        >
                          <CellContent value={value} text={text} />
                        </th>
                      );
                    }
                    if (marked && marked.row === original && marked.column === column.name) {
                      return (
                        <td key={column.name} ref={focusMarked} tabIndex={-1} data-trace-highlight="" title={title} className={`${base} bg-amber-200 text-zinc-950 outline-none ring-2 ring-inset ring-amber-500 dark:bg-amber-300`}>
                          <CellContent value={value} text={text} />
                        </td>
                      );
                    }
                    return (
                      <td key={column.name} title={title} className={`${base} group-hover/row:bg-zinc-50 dark:group-hover/row:bg-zinc-900/60`}>
                        <CellContent value={value} text={text} />
                      </td>
                    );
                  })}
                </tr>
              );
            })}
            {virtualised && virtual.after > 0 && (
              <tr aria-hidden="true" data-spacer="after" style={{ height: virtual.after }}>
                <td colSpan={columnCount} className="p-0" />
              </tr>
            )}
            {view.total === 0 && (
              <tr data-empty="">
                <td colSpan={columnCount} className="px-2 py-3 text-zinc-600 dark:text-zinc-300">
                  {layouts.length === 0 ? 'This table has no columns.' : filtered ? `No rows match “${deferredFilter.trim()}”.` : 'This table has no rows.'}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>

      <div className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1.5 text-xs text-zinc-600 dark:text-zinc-300">
        <p role="status" className="mr-auto tabular-nums">
          {rangeText}
        </p>
        <div className="flex items-center gap-1.5">
          <label htmlFor={pageSizeId}>Rows per page</label>
          <select
            id={pageSizeId}
            value={String(pageSize)}
            onChange={(e) => changePageSize(e.target.value)}
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
            <button type="button" onClick={() => changePage(view.page - 1)} disabled={view.page === 0} className={buttonClass}>
              Previous
            </button>
            <span className="tabular-nums">
              Page {count.format(view.page + 1)} of {count.format(view.pages)}
            </span>
            <button type="button" onClick={() => changePage(view.page + 1)} disabled={view.page >= view.pages - 1} className={buttonClass}>
              Next
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
