'use client';

import Link from 'next/link';
import { memo, useId, useRef, useState } from 'react';
import { DeleteDialog, RenameDialog } from './sidebar-dialogs';
import { SidebarProjects } from './sidebar-projects';
import { SidebarRow, type SidebarItem } from './sidebar-row';
import { useConversationList } from './use-conversation-list';

/**
 * The sidebar's frame: new chat, the search box, the projects, the person's conversations newest
 * first grouped by date (Today, Previous 7 days, Older; the list itself is `useConversationList`),
 * rename and delete in dialogs, My datasets. One tab stop per conversation.
 */
export const Sidebar = memo(function Sidebar({
  currentId,
  refreshKey,
  open,
  onClose,
  onCurrentTitle,
  currentName,
  onOpenDatasets,
}: {
  currentId: string;
  refreshKey: number;
  open: boolean;
  onClose: () => void;
  onCurrentTitle: (title: string | null) => void;
  currentName: string;
  /** Opens "My datasets" (components/files/datasets-dialog.tsx). */
  onOpenDatasets?: () => void;
}) {
  const [query, setQuery] = useState('');
  const [renaming, setRenaming] = useState<SidebarItem | null>(null);
  const [deleting, setDeleting] = useState<SidebarItem | null>(null);
  /** After a delete, focus goes to the row that took the deleted one's place. */
  const afterDelete = useRef<string | null>(null);
  const search = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const { error, searching, shown, groups, rename, remove, loadMore } = useConversationList({ currentId, currentName, refreshKey, query, onCurrentTitle });

  const openDelete = (item: SidebarItem) => {
    const index = shown.findIndex((i) => i.id === item.id);
    afterDelete.current = (shown[index + 1] ?? shown[index - 1])?.id ?? null;
    setDeleting(item);
  };

  const focusAfterDelete = () => {
    const next = afterDelete.current;
    const link = next ? document.querySelector<HTMLElement>(`nav [data-row-link][href="/c/${next}"]`) : null;
    return link ?? search.current;
  };

  return (
    <nav
      aria-label="Conversations"
      className={`${open ? 'fixed inset-y-0 left-0 z-30 flex shadow-xl' : 'hidden'} w-72 flex-col border-r border-zinc-200 bg-zinc-50 md:static md:flex md:shadow-none dark:border-zinc-800 dark:bg-zinc-900`}
    >
      <div className="flex items-center gap-2 p-3 pb-2">
        <Link href="/" className="flex-1 rounded-lg border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-white dark:border-zinc-700 dark:hover:bg-zinc-800">
          + New chat
        </Link>
        <button type="button" onClick={onClose} className="rounded px-2 py-1 text-sm md:hidden" aria-label="Close conversations">
          ✕
        </button>
      </div>
      <div className="px-3 pb-2">
        <input
          ref={search}
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          aria-label="Search conversations"
          placeholder="Search"
          className="block w-full rounded-lg border border-zinc-300 bg-white px-2.5 py-1 text-sm placeholder:text-zinc-500 dark:border-zinc-700 dark:bg-zinc-950 dark:placeholder:text-zinc-400"
        />
      </div>
      {error && (
        <p role="alert" className="px-3 text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <p id={hintId} className="sr-only">
        Right arrow for Rename and Delete; up and down arrows for the other conversations.
      </p>
      <p role="status" className="sr-only">
        {searching ? `${shown.length} ${shown.length === 1 ? 'conversation' : 'conversations'} found` : ''}
      </p>
      <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-3">
        <SidebarProjects />
        {groups.map((group) => (
          <div key={group.label} className="mt-2 first:mt-0">
            <h2 id={`${hintId}-${group.label.replace(/\W+/g, '-')}`} className="px-2 py-1 text-xs font-medium text-zinc-600 dark:text-zinc-400">
              {group.label}
            </h2>
            <ul aria-labelledby={`${hintId}-${group.label.replace(/\W+/g, '-')}`}>
              {group.items.map((item) => (
                <SidebarRow key={item.id} item={item} current={item.id === currentId} hintId={hintId} onRename={setRenaming} onDelete={openDelete} />
              ))}
            </ul>
          </div>
        ))}
        {shown.length === 0 && !error && (
          <p className="px-2 py-1.5 text-sm text-zinc-600 dark:text-zinc-400">{searching ? `No conversation matches “${query.trim()}”.` : 'No conversations yet.'}</p>
        )}
      </div>
      {loadMore && (
        <button type="button" onClick={loadMore} className="m-2 rounded border border-zinc-300 py-1 text-sm dark:border-zinc-700">
          Load more
        </button>
      )}
      {onOpenDatasets && (
        <button type="button" onClick={onOpenDatasets} className="m-2 mt-0 rounded border border-zinc-300 py-1 text-sm dark:border-zinc-700">
          My datasets
        </button>
      )}
      <RenameDialog item={renaming} onClose={() => setRenaming(null)} onRename={rename} />
      <DeleteDialog item={deleting} onClose={() => setDeleting(null)} fallbackFocus={focusAfterDelete} onDelete={remove} />
    </nav>
  );
});
