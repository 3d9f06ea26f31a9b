'use client';

import Link from 'next/link';
import type { KeyboardEvent } from 'react';

/** `title` is what the conversation shows (its own title, else its first question: lib/messages/shown-title.ts). */
export type SidebarItem = { id: string; title: string; titled: boolean; updatedAt: string };

export const titleOf = (item: SidebarItem) => item.title;

/** Marks the row links, so the arrow keys can move between rows across the date groups. */
const ROW_LINK = 'data-row-link';

type SidebarRowProps = {
  item: SidebarItem;
  current: boolean;
  /** The id of the hint that tells how to reach the row's actions from the keyboard. */
  hintId: string;
  onRename: (item: SidebarItem) => void;
  onDelete: (item: SidebarItem) => void;
};

function rowLinks(from: HTMLElement): HTMLElement[] {
  const list = from.closest('nav');
  return list ? Array.from(list.querySelectorAll<HTMLElement>(`[${ROW_LINK}]`)) : [];
}

/** Up/Down (and Home/End) move between rows, as in a list; the caller handles the rest. */
function moveBetweenRows(event: KeyboardEvent<HTMLElement>, link: HTMLElement | null): boolean {
  if (!link) return false;
  const links = rowLinks(link);
  const index = links.indexOf(link);
  const target =
    event.key === 'ArrowDown' ? links[index + 1] : event.key === 'ArrowUp' ? links[index - 1] : event.key === 'Home' ? links[0] : event.key === 'End' ? links.at(-1) : undefined;
  if (!target) return false;
  event.preventDefault();
  target.focus();
  return true;
}

/**
 * One conversation: a link that takes the whole width (its title cut with an ellipsis only when
 * it does not fit; the full title in `title`), and Rename and Delete over its end, shown on hover
 * and while the row has focus (always on touch screens, which cannot hover).
 *
 * Keyboard: the row is one tab stop (the link). Right arrow moves to Rename, then Delete; Left
 * arrow and Esc go back; Up and Down move between rows. F2 renames and Delete deletes directly.
 */
export function SidebarRow({ item, current, hintId, onRename, onDelete }: SidebarRowProps) {
  const title = titleOf(item);
  const linkOf = (element: HTMLElement) => element.closest('li')?.querySelector<HTMLElement>(`[${ROW_LINK}]`) ?? null;
  const actionsOf = (element: HTMLElement) => Array.from(element.closest('li')?.querySelectorAll<HTMLElement>('[data-row-action]') ?? []);

  const onLinkKeyDown = (event: KeyboardEvent<HTMLAnchorElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'ArrowRight') {
      event.preventDefault();
      actionsOf(event.currentTarget)[0]?.focus();
    } else if (event.key === 'F2') {
      event.preventDefault();
      onRename(item);
    } else if (event.key === 'Delete') {
      event.preventDefault();
      onDelete(item);
    } else {
      moveBetweenRows(event, event.currentTarget);
    }
  };

  const onActionKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const actions = actionsOf(event.currentTarget);
    const index = actions.indexOf(event.currentTarget);
    if (event.key === 'ArrowRight') {
      event.preventDefault();
      actions[index + 1]?.focus();
    } else if (event.key === 'ArrowLeft' || event.key === 'Escape') {
      event.preventDefault();
      (index > 0 && event.key === 'ArrowLeft' ? actions[index - 1] : linkOf(event.currentTarget))?.focus();
    } else {
      moveBetweenRows(event, linkOf(event.currentTarget));
    }
  };

  const action =
    'pointer-events-auto rounded px-1.5 py-0.5 text-xs text-zinc-700 hover:bg-zinc-200 hover:text-zinc-950 focus-visible:outline-offset-0 dark:text-zinc-300 dark:hover:bg-zinc-700 dark:hover:text-white';
  return (
    <li
      className={`group relative flex items-center rounded-lg ${current ? 'bg-zinc-200 dark:bg-zinc-800' : 'hover:bg-zinc-100 focus-within:bg-zinc-100 dark:hover:bg-zinc-800 dark:focus-within:bg-zinc-800'}`}
    >
      <Link
        href={`/c/${item.id}`}
        data-row-link=""
        aria-current={current ? 'page' : undefined}
        aria-describedby={hintId}
        aria-keyshortcuts="F2 Delete"
        title={title}
        onKeyDown={onLinkKeyDown}
        className={`block min-w-0 flex-1 truncate rounded-lg px-2 py-1.5 text-sm focus-visible:outline-offset-0 ${current ? 'font-medium' : ''}`}
      >
        {title}
      </Link>
      {/* Over the end of the title, on the row's own background (beside it on touch screens); not tab stops (see above). */}
      <div className="pointer-events-none absolute inset-y-0 right-0 flex items-center gap-0.5 rounded-r-lg bg-inherit pl-2 pr-1 opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 [@media(hover:none)]:static [@media(hover:none)]:opacity-100">
        <button type="button" tabIndex={-1} data-row-action onClick={() => onRename(item)} onKeyDown={onActionKeyDown} className={action} aria-label={`Rename ${title}`}>
          Rename
        </button>
        <button type="button" tabIndex={-1} data-row-action onClick={() => onDelete(item)} onKeyDown={onActionKeyDown} className={action} aria-label={`Delete ${title}`}>
          Delete
        </button>
      </div>
    </li>
  );
}
