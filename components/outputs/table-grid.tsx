'use client';

/** A table output's scrolled grid (components/outputs/table-output.tsx): the sticky, sortable header and the rows drawn. */
import { useId, type CSSProperties, type RefObject } from 'react';
import { formatCell, type Cell, type SortState, type TableView } from '@/lib/tables/table-view';
import { ROW_HEIGHT, type Layout } from './use-table-output';
import type { VirtualRows } from './use-virtual-rows';
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

const stickyLeft = (layout: Layout): CSSProperties | undefined => (layout.left === null ? undefined : { left: layout.left });

export type GridProps = {
  view: TableView;
  layouts: Layout[];
  tableWidth: number;
  sort: SortState;
  onSort: (column: string) => void;
  virtualised: boolean;
  virtual: VirtualRows;
  bodyRows: TableView['rows'];
  bodyOffset: number;
  marked: CellHighlight | undefined;
  focusMarked: (cell: HTMLTableCellElement | null) => void;
  scrollRef: RefObject<HTMLDivElement | null>;
  caption: string;
  emptyText: string;
};

/** One body row: its index cells sticky, a traced cell marked. */
function TableRow({ row, original, rowIndex, layouts, marked, focusMarked }: { row: TableView['rows'][number]; original: number; rowIndex: number; layouts: Layout[]; marked: CellHighlight | undefined; focusMarked: GridProps['focusMarked'] }) {
  return (
    <tr data-row={original} aria-rowindex={rowIndex} style={{ height: ROW_HEIGHT }} className="group/row">
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
}

/** The scrolled region: the sticky, sortable header and the rows drawn (a page, or the window of "All rows"). */
export function TableGrid({ view, layouts, tableWidth, sort, onSort, virtualised, virtual, bodyRows, bodyOffset, marked, focusMarked, scrollRef, caption, emptyText }: GridProps) {
  const captionId = `${useId()}-caption`;
  const columnCount = Math.max(1, layouts.length);
  return (
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
          Table, {caption}
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
                    onClick={() => onSort(column.name)}
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
            return <TableRow key={original} row={row} original={original} rowIndex={view.start + position + 2} layouts={layouts} marked={marked} focusMarked={focusMarked} />;
          })}
          {virtualised && virtual.after > 0 && (
            <tr aria-hidden="true" data-spacer="after" style={{ height: virtual.after }}>
              <td colSpan={columnCount} className="p-0" />
            </tr>
          )}
          {view.total === 0 && (
            <tr data-empty="">
              <td colSpan={columnCount} className="px-2 py-3 text-zinc-600 dark:text-zinc-300">
                {emptyText}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

