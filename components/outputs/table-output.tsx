'use client';

import { useDeferredValue, useEffect, useId, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { TableData } from '@/lib/runtime/protocol';
import { formatCell, tableColumns, viewTable, type Cell, type Column, type SortState } from '@/lib/tables/table-view';
import { tableToCsv, tableToTsv } from '@/lib/tables/to-csv';
import { useVirtualRows } from './use-virtual-rows';
import type { CellHighlight } from './output-list';

type PageSize = 25 | 50 | 100 | 'all';
const PAGE_SIZES: readonly PageSize[] = [25, 50, 100, 'all'];
const DEFAULT_PAGE_SIZE: PageSize = 50;
/** Every body row is this high (h-7), which the windowing of "All rows" relies on. */
const ROW_HEIGHT = 28;
const MIN_WIDTH = 64;
const MAX_WIDTH = 360;
/** Width of one character of the 13px cell font, and the cell's horizontal padding, in px. */
const CHAR_WIDTH = 8;
const CELL_PADDING = 16;
const SORT_ICON = 14;
/** Rows sampled to size the columns (every row of a small table). */
const WIDTH_SAMPLE = 200;

const count = new Intl.NumberFormat('en-US');
const plural = (n: number, word: string) => `${count.format(n)} ${word}${n === 1 ? '' : 's'}`;

type Layout = { column: Column; width: number; chars: number; left: number | null; lastIndex: boolean };

/**
 * Fixed column widths from the longest formatted cell of a sample of rows, so the sticky header
 * and a windowed body (whose rows change while scrolling) keep the same widths. Index columns
 * come first and get a sticky left offset.
 */
function layoutColumns(table: TableData, columns: Column[]): Layout[] {
  const ordered = [...columns.filter((c) => c.index), ...columns.filter((c) => !c.index)];
  const step = Math.max(1, Math.floor(table.data.length / WIDTH_SAMPLE));
  let left = 0;
  const indexCount = ordered.filter((c) => c.index).length;
  return ordered.map((column, position) => {
    let longest = 1;
    for (let i = 0; i < table.data.length; i += step) longest = Math.max(longest, formatCell(table.data[i][column.name], column.type).length);
    const content = Math.max(longest * CHAR_WIDTH, column.name.length * CHAR_WIDTH + SORT_ICON);
    const width = Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, content + CELL_PADDING)));
    const layout: Layout = {
      column,
      width,
      chars: Math.floor((width - CELL_PADDING) / CHAR_WIDTH),
      left: column.index ? left : null,
      lastIndex: column.index && position === indexCount - 1,
    };
    if (column.index) left += width;
    return layout;
  });
}

function nextSort(sort: SortState, column: string): SortState {
  if (sort?.column !== column) return { column, direction: 'asc' };
  return sort.direction === 'asc' ? { column, direction: 'desc' } : null;
}

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

type CopyState = { status: 'idle' | 'copied' | 'failed'; rows: number; at: number };

/**
 * A table output (a pandas DataFrame): sortable headers, a filter, paging or a windowed "All
 * rows" view, Copy as TSV and Download CSV of the filtered rows, and a sticky index column.
 */
export function TableOutput({ table, highlight }: { table: TableData; highlight?: CellHighlight }) {
  const [sort, setSort] = useState<SortState>(null);
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<PageSize>(DEFAULT_PAGE_SIZE);
  // A traced value: the filter is cleared and the page turned to its row (state adjusted while
  // rendering, once per request), then the cell is scrolled to and focused when it renders.
  const [shownSeq, setShownSeq] = useState<number | null>(null);
  const focusSeq = useRef<number | null>(null);
  const [highlightPosition, setHighlightPosition] = useState(0);
  if (highlight && highlight.seq !== shownSeq) {
    setShownSeq(highlight.seq);
    setFilter('');
    const position = Math.max(0, viewTable(table, { sort, filter: '', page: 0, pageSize: Infinity }).rowIndices.indexOf(highlight.row));
    setHighlightPosition(position);
    if (pageSize !== 'all') setPage(Math.floor(position / pageSize));
  }
  const marked = highlight && highlight.seq === shownSeq ? highlight : undefined;
  const [copy, setCopy] = useState<CopyState>({ status: 'idle', rows: 0, at: 0 });
  const scrollRef = useRef<HTMLDivElement>(null);
  const ids = useId();
  const captionId = `${ids}-caption`;
  const filterId = `${ids}-filter`;
  const hintId = `${ids}-hint`;
  const pageSizeId = `${ids}-page-size`;

  // Typing stays responsive on 1,000 × 200 tables: the view follows the filter at low priority.
  const deferredFilter = useDeferredValue(filter);
  const virtualised = pageSize === 'all';
  const view = useMemo(
    () => viewTable(table, { sort, filter: deferredFilter, page, pageSize: virtualised ? Infinity : pageSize }),
    [table, sort, deferredFilter, page, pageSize, virtualised],
  );
  const columns = useMemo(() => tableColumns(table), [table]);
  const layouts = useMemo(() => layoutColumns(table, columns), [table, columns]);
  const tableWidth = layouts.reduce((sum, l) => sum + l.width, 0);
  const virtual = useVirtualRows({ count: view.rows.length, rowHeight: ROW_HEIGHT, containerRef: scrollRef, enabled: virtualised, overscan: 10 });

  const markedSeq = marked?.seq;
  useEffect(() => {
    if (markedSeq === undefined) return;
    const cell = scrollRef.current?.querySelector<HTMLTableCellElement>('td[data-trace-highlight]');
    if (cell) {
      cell.scrollIntoView({ block: 'center', inline: 'nearest' });
      cell.focus({ preventScroll: true });
      return;
    }
    // "All rows" is windowed: scroll the row into the window; the cell is focused when it renders.
    focusSeq.current = markedSeq;
    if (scrollRef.current) scrollRef.current.scrollTop = Math.max(0, highlightPosition * ROW_HEIGHT - 3 * ROW_HEIGHT);
  }, [markedSeq, highlightPosition]);
  const focusMarked = (cell: HTMLTableCellElement | null) => {
    if (!cell || focusSeq.current === null || focusSeq.current !== markedSeq) return;
    focusSeq.current = null;
    cell.scrollIntoView({ block: 'center', inline: 'nearest' });
    cell.focus({ preventScroll: true });
  };

  useEffect(() => {
    if (copy.status === 'idle') return;
    const timer = setTimeout(() => setCopy((c) => ({ ...c, status: 'idle' })), 2_000);
    return () => clearTimeout(timer);
  }, [copy]);

  const indexCount = columns.filter((c) => c.index).length;
  const [fullRows, fullColumns] = table.shape ?? [table.data.length, columns.length - indexCount];
  const keptColumns = columns.length - indexCount;
  const shape = `${plural(fullRows, 'row')} × ${plural(fullColumns, 'column')}`;
  const capped: string[] = [];
  if (table.data.length < fullRows) capped.push(`the first ${count.format(table.data.length)} of ${count.format(fullRows)} rows`);
  if (keptColumns < fullColumns) capped.push(`${capped.length ? '' : 'the first '}${count.format(keptColumns)} of ${count.format(fullColumns)} columns`);
  const cappedText = capped.length ? `showing ${capped.join(' and ')}` : '';

  const filtered = deferredFilter.trim() !== '';
  const first = view.total === 0 ? 0 : view.start + 1;
  const last = view.start + view.rows.length;
  const rangeText =
    view.total === 0
      ? `Rows 0 of 0${filtered ? ` (filtered from ${count.format(table.data.length)})` : ''}`
      : `Rows ${count.format(first)}–${count.format(last)} of ${count.format(view.total)}${filtered ? ` (filtered from ${count.format(table.data.length)})` : ''}`;
  const sortText = sort ? `, sorted by ${sort.column} ${sort.direction === 'asc' ? 'ascending' : 'descending'}` : '';

  const scrollToTop = () => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  };
  const changeFilter = (value: string) => {
    setFilter(value);
    setPage(0);
    scrollToTop();
  };
  const changePage = (next: number) => {
    setPage(Math.min(Math.max(0, next), view.pages - 1));
    scrollToTop();
  };

  const copyRows = async () => {
    const rows = view.matched;
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(tableToTsv(table, rows));
      setCopy({ status: 'copied', rows: rows.length, at: Date.now() });
    } catch {
      setCopy({ status: 'failed', rows: rows.length, at: Date.now() });
    }
  };

  const downloadCsv = () => {
    // The BOM makes Excel read the file as UTF-8.
    const blob = new Blob(['\uFEFF', tableToCsv(table, view.matched)], { type: 'text/csv;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = 'table.csv';
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  };

  const bodyRows = virtualised ? view.rows.slice(virtual.start, virtual.end) : view.rows;
  const bodyOffset = virtualised ? virtual.start : 0;
  const columnCount = Math.max(1, layouts.length);
  const stickyLeft = (layout: Layout): CSSProperties | undefined => (layout.left === null ? undefined : { left: layout.left });

  return (
    <div data-output="table" data-testid="table-output" data-row-count={view.total} className="my-2 text-zinc-900 dark:text-zinc-100">
      <div className="mb-1.5 flex flex-wrap items-center gap-x-3 gap-y-1.5 text-xs">
        <p className="mr-auto text-zinc-600 dark:text-zinc-300">
          <span className="font-medium text-zinc-800 dark:text-zinc-100">{shape}</span>
          {cappedText && <span> · {cappedText}</span>}
        </p>
        <div className="flex items-center gap-1.5">
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
            className="h-7 w-56 rounded border border-zinc-300 bg-white px-2 text-xs text-zinc-900 placeholder:text-zinc-500 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400"
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
        className="max-h-[28rem] overflow-auto rounded border border-zinc-200 dark:border-zinc-700"
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
                      onClick={() => {
                        setSort((s) => nextSort(s, column.name));
                        setPage(0);
                        scrollToTop();
                      }}
                      title={column.name.length * CHAR_WIDTH + SORT_ICON > layout.width - CELL_PADDING ? column.name : undefined}
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
            onChange={(e) => {
              const value = e.target.value;
              setPageSize(value === 'all' ? 'all' : (Number(value) as PageSize));
              setPage(0);
              scrollToTop();
            }}
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
