'use client';

import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { TableData } from '@/lib/runtime/protocol';
import { formatCell, tableColumns, viewTable, type Column, type SortState, type TableView } from '@/lib/tables/table-view';
import { tableToCsv, tableToTsv } from '@/lib/tables/to-csv.client';
import { tableShape } from '@/lib/trace/sources';
import { useVirtualRows } from './use-virtual-rows';
import type { CellHighlight } from './highlight';

export type PageSize = 25 | 50 | 100 | 'all';
export const PAGE_SIZES: readonly PageSize[] = [25, 50, 100, 'all'];
const DEFAULT_PAGE_SIZE: PageSize = 50;
/** Every body row is this high (h-7), which the windowing of "All rows" relies on. */
export const ROW_HEIGHT = 28;
const MIN_WIDTH = 64;
const MAX_WIDTH = 360;
/** Width of one character of the 13px monospace cell font, and the cell's horizontal padding, in px. */
const CHAR_WIDTH = 8;
/**
 * Width of one character of the 13px semibold header, in px: a wide sans (DejaVu Sans Bold, what
 * Linux without other fonts draws) included, so that "month" is never cut to "mo…".
 */
const HEADER_CHAR_WIDTH = 10;
export const CELL_PADDING = 16;
/** The sort arrow and the gap before it. */
const SORT_ICON = 18;
/** Rows sampled to size the columns (every row of a small table). */
const WIDTH_SAMPLE = 200;

export const count = new Intl.NumberFormat('en-US');
export const plural = (n: number, word: string) => `${count.format(n)} ${word}${n === 1 ? '' : 's'}`;

export type Layout = { column: Column; width: number; chars: number; headerFits: boolean; left: number | null; lastIndex: boolean };

const headerWidth = (name: string) => name.length * HEADER_CHAR_WIDTH + SORT_ICON;

/**
 * Fixed column widths from the longest formatted cell of a sample of rows and from the header, so
 * the sticky header and a windowed body (whose rows change while scrolling) keep the same widths.
 * Index columns come first and get a sticky left offset.
 */
export function layoutColumns(table: TableData, columns: Column[]): Layout[] {
  const ordered = [...columns.filter((c) => c.index), ...columns.filter((c) => !c.index)];
  const step = Math.max(1, Math.floor(table.data.length / WIDTH_SAMPLE));
  let left = 0;
  const indexCount = ordered.filter((c) => c.index).length;
  return ordered.map((column, position) => {
    let longest = 1;
    for (let i = 0; i < table.data.length; i += step) longest = Math.max(longest, formatCell(table.data[i][column.name], column.type).length);
    const content = Math.max(longest * CHAR_WIDTH, headerWidth(column.name));
    const width = Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, content + CELL_PADDING)));
    const layout: Layout = {
      column,
      width,
      chars: Math.floor((width - CELL_PADDING) / CHAR_WIDTH),
      headerFits: headerWidth(column.name) <= width - CELL_PADDING,
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

type CopyState = { status: 'idle' | 'copied' | 'failed'; rows: number; at: number };

/** The words of a table's size (the one traced figures are matched against, lib/trace/sources.ts), its range and its sort. */
export function tableWords(table: TableData, columns: Column[], view: TableView, filter: string, sort: SortState) {
  const full = tableShape(table);
  const keptColumns = columns.filter((c) => !c.index).length;
  const shape = `${plural(full.rows, 'row')} × ${plural(full.columns, 'column')}`;
  const capped: string[] = [];
  if (table.data.length < full.rows) capped.push(`the first ${count.format(table.data.length)} of ${count.format(full.rows)} rows`);
  if (keptColumns < full.columns) capped.push(`${capped.length ? '' : 'the first '}${count.format(keptColumns)} of ${count.format(full.columns)} columns`);
  const cappedText = capped.length ? `showing ${capped.join(' and ')}` : '';

  const filtered = filter.trim() !== '';
  const first = view.total === 0 ? 0 : view.start + 1;
  const last = view.start + view.rows.length;
  const rangeText =
    view.total === 0
      ? `Rows 0 of 0${filtered ? ` (filtered from ${count.format(table.data.length)})` : ''}`
      : `Rows ${count.format(first)}–${count.format(last)} of ${count.format(view.total)}${filtered ? ` (filtered from ${count.format(table.data.length)})` : ''}`;
  const sortText = sort ? `, sorted by ${sort.column} ${sort.direction === 'asc' ? 'ascending' : 'descending'}` : '';
  return { shape, cappedText, rangeText, sortText };
}

/** Downloads these rows of a table as table.csv. */
function downloadCsv(table: TableData, rows: TableView['matched']): void {
  // The BOM makes Excel read the file as UTF-8.
  const blob = new Blob(['\uFEFF', tableToCsv(table, rows)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = 'table.csv';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** Copy as TSV (with its "Copied" for two seconds) and Download CSV of the rows the filter matches. */
function useTableExport(table: TableData, matched: TableView['matched']) {
  const [copy, setCopy] = useState<CopyState>({ status: 'idle', rows: 0, at: 0 });
  useEffect(() => {
    if (copy.status === 'idle') return;
    const timer = setTimeout(() => setCopy((c) => ({ ...c, status: 'idle' })), 2_000);
    return () => clearTimeout(timer);
  }, [copy]);
  const copyRows = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(tableToTsv(table, matched));
      setCopy({ status: 'copied', rows: matched.length, at: Date.now() });
    } catch {
      setCopy({ status: 'failed', rows: matched.length, at: Date.now() });
    }
  };
  return { copy, copyRows, downloadCsv: () => downloadCsv(table, matched) };
}

/**
 * The table's view state: sort, filter (followed at low priority), page or the windowed "All
 * rows", and a traced cell to show: the filter is cleared and the page turned to its row (state
 * adjusted while rendering, once per request).
 */
function useTableView(table: TableData, highlight: CellHighlight | undefined) {
  const [sort, setSort] = useState<SortState>(null);
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<PageSize>(DEFAULT_PAGE_SIZE);
  const [shownSeq, setShownSeq] = useState<number | null>(null);
  const [highlightPosition, setHighlightPosition] = useState(0);
  if (highlight && highlight.seq !== shownSeq) {
    setShownSeq(highlight.seq);
    setFilter('');
    const position = Math.max(0, viewTable(table, { sort, filter: '', page: 0, pageSize: Infinity }).rowIndices.indexOf(highlight.row));
    setHighlightPosition(position);
    if (pageSize !== 'all') setPage(Math.floor(position / pageSize));
  }
  const marked = highlight && highlight.seq === shownSeq ? highlight : undefined;
  // Typing stays responsive on 1,000 × 200 tables: the view follows the filter at low priority.
  const deferredFilter = useDeferredValue(filter);
  const virtualised = pageSize === 'all';
  const view = useMemo(
    () => viewTable(table, { sort, filter: deferredFilter, page, pageSize: virtualised ? Infinity : pageSize }),
    [table, sort, deferredFilter, page, pageSize, virtualised],
  );
  return { sort, setSort, filter, setFilter, setPage, pageSize, setPageSize, deferredFilter, virtualised, view, marked, highlightPosition };
}

/**
 * The rows drawn: the page, or the window of "All rows" in the scrolled region; the traced cell
 * scrolled to and focused when it renders.
 */
function useTableWindow(view: TableView, virtualised: boolean, marked: CellHighlight | undefined, highlightPosition: number) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const focusSeq = useRef<number | null>(null);
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
  const scrollToTop = () => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  };
  const bodyRows = virtualised ? view.rows.slice(virtual.start, virtual.end) : view.rows;
  const bodyOffset = virtualised ? virtual.start : 0;
  return { scrollRef, virtual, focusMarked, scrollToTop, bodyRows, bodyOffset };
}

/**
 * The state of a table output (components/outputs/table-output.tsx draws it), for its three parts:
 * the toolbar (size, filter, Copy, Download CSV), the grid (columns, the rows drawn, a traced
 * cell) and the pager (range, rows per page, Previous and Next).
 */
export function useTableOutput(table: TableData, highlight: CellHighlight | undefined) {
  const { sort, setSort, filter, setFilter, setPage, pageSize, setPageSize, deferredFilter, virtualised, view, marked, highlightPosition } = useTableView(table, highlight);
  const columns = useMemo(() => tableColumns(table), [table]);
  const layouts = useMemo(() => layoutColumns(table, columns), [table, columns]);
  const { scrollRef, virtual, focusMarked, scrollToTop, bodyRows, bodyOffset } = useTableWindow(view, virtualised, marked, highlightPosition);
  const exported = useTableExport(table, view.matched);
  const words = tableWords(table, columns, view, deferredFilter, sort);

  const changeFilter = (value: string) => {
    setFilter(value);
    setPage(0);
    scrollToTop();
  };
  const changePage = (next: number) => {
    setPage(Math.min(Math.max(0, next), view.pages - 1));
    scrollToTop();
  };
  const changePageSize = (value: string) => {
    setPageSize(value === 'all' ? 'all' : (Number(value) as PageSize));
    setPage(0);
    scrollToTop();
  };
  const sortBy = (column: string) => {
    setSort((s) => nextSort(s, column));
    setPage(0);
    scrollToTop();
  };

  return {
    total: view.total,
    toolbar: { shape: words.shape, cappedText: words.cappedText, total: view.total, filter, onFilter: changeFilter, ...exported },
    grid: {
      view,
      layouts,
      tableWidth: layouts.reduce((sum, l) => sum + l.width, 0),
      sort,
      onSort: sortBy,
      virtualised,
      virtual,
      bodyRows,
      bodyOffset,
      marked,
      focusMarked,
      scrollRef,
      caption: `${words.shape}${words.cappedText ? `, ${words.cappedText}` : ''}${words.sortText}`,
      emptyText: layouts.length === 0 ? 'This table has no columns.' : deferredFilter.trim() !== '' ? `No rows match “${deferredFilter.trim()}”.` : 'This table has no rows.',
    },
    pager: { rangeText: words.rangeText, pageSize, onPageSize: changePageSize, virtualised, page: view.page, pages: view.pages, onPage: changePage },
  };
}
