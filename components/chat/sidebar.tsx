'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import { groupByDate } from '@/lib/chat/group-by-date.client';
import { failureWords } from '@/lib/http/error-body.client';
import { DeleteDialog, RenameDialog } from './sidebar-dialogs';
import { SidebarProjects } from './sidebar-projects';
import { SidebarRow, titleOf, type SidebarItem } from './sidebar-row';

const pageSchema = z.object({
  items: z.array(z.object({ id: z.string(), title: z.string(), titled: z.boolean(), updatedAt: z.string() })),
  nextCursor: z.string().nullable(),
});

/** Case and accents do not matter: "resume" finds "Résumé". */
const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

function matches(item: SidebarItem, terms: string[]): boolean {
  const title = fold(titleOf(item));
  return terms.every((term) => title.includes(term));
}

/**
 * The guest's conversations, newest first, grouped by date (Today, Previous 7 days, Older), with
 * a search over their titles, new, rename and delete (in dialogs). One tab stop per conversation.
 * `onCurrentTitle` hears the open conversation's own title as the list has it (null when the list
 * does not hold it or it has none yet), so a generated title or a rename shows in the header at
 * once; the open conversation's row shows `currentName`, what the header shows, so the two agree
 * at every moment (lib/messages/shown-title.ts: a title, else the first question).
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
  const [list, setList] = useState<{ items: SidebarItem[]; loadedAt: Date }>({ items: [], loadedAt: new Date(0) });
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [renaming, setRenaming] = useState<SidebarItem | null>(null);
  const [deleting, setDeleting] = useState<SidebarItem | null>(null);
  /** After a delete, focus goes to the row that took the deleted one's place. */
  const afterDelete = useRef<string | null>(null);
  const search = useRef<HTMLInputElement>(null);
  const loading = useRef(false);
  const router = useRouter();
  const hintId = useId();

  const load = useCallback(async (after: string | null) => {
    loading.current = true;
    try {
      const response = await fetch(`/api/conversations${after ? `?cursor=${encodeURIComponent(after)}` : ''}`);
      if (!response.ok) {
        setError(await failureWords(response, 'Conversations could not be loaded.'));
        return;
      }
      const parsed = pageSchema.safeParse(await response.json());
      if (!parsed.success) {
        console.warn('The conversation list was not understood; the sidebar says so and keeps what it had.', parsed.error);
        setError('Conversations could not be loaded.');
        return;
      }
      setError(null);
      setList((previous) => ({ items: after ? [...previous.items, ...parsed.data.items] : parsed.data.items, loadedAt: new Date() }));
      setCursor(parsed.data.nextCursor);
    } catch {
      // No answer, or a body that is not JSON: said in the sidebar, which loads again on the next change.
      setError('Conversations could not be loaded.');
    } finally {
      loading.current = false;
    }
  }, []);

  useEffect(() => {
    // Reload when a conversation is created, renamed or titled (refreshKey changes).
    void load(null);
  }, [load, refreshKey]);

  const current = list.items.find((item) => item.id === currentId);
  const currentTitle = current?.titled ? current.title : null;
  useEffect(() => onCurrentTitle(currentTitle), [currentTitle, onCurrentTitle]);
  const items = useMemo(() => list.items.map((item) => (item.id === currentId && item.title !== currentName ? { ...item, title: currentName } : item)), [list.items, currentId, currentName]);

  const terms = useMemo(() => fold(query).split(/\s+/).filter(Boolean), [query]);
  // A search covers every conversation, not only the pages loaded so far.
  useEffect(() => {
    if (terms.length > 0 && cursor && !loading.current && !error) void load(cursor);
  }, [terms, cursor, error, load]);

  const shown = useMemo(() => (terms.length > 0 ? items.filter((item) => matches(item, terms)) : items), [items, terms]);
  const groups = useMemo(() => groupByDate(shown, list.loadedAt), [shown, list.loadedAt]);

  const rename = async (item: SidebarItem, title: string) => {
    const response = await fetch(`/api/conversations/${item.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    }).catch(() => null); // no answer: worded below like a refusal
    if (!response?.ok) return { ok: false as const, message: await failureWords(response, 'The conversation could not be renamed. Try again.') };
    setList((previous) => ({ ...previous, items: previous.items.map((i) => (i.id === item.id ? { ...i, title, titled: true } : i)) }));
    return { ok: true as const };
  };

  const openDelete = (item: SidebarItem) => {
    const index = shown.findIndex((i) => i.id === item.id);
    afterDelete.current = (shown[index + 1] ?? shown[index - 1])?.id ?? null;
    setDeleting(item);
  };

  const remove = async (item: SidebarItem) => {
    const response = await fetch(`/api/conversations/${item.id}`, { method: 'DELETE' }).catch(() => null); // no answer: worded below
    if (!response?.ok) return { ok: false as const, message: await failureWords(response, 'The conversation could not be deleted. Try again.') };
    setList((previous) => ({ ...previous, items: previous.items.filter((i) => i.id !== item.id) }));
    if (item.id === currentId) router.push('/');
    return { ok: true as const };
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
        {terms.length > 0 ? `${shown.length} ${shown.length === 1 ? 'conversation' : 'conversations'} found` : ''}
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
          <p className="px-2 py-1.5 text-sm text-zinc-600 dark:text-zinc-400">{terms.length > 0 ? `No conversation matches “${query.trim()}”.` : 'No conversations yet.'}</p>
        )}
      </div>
      {cursor && terms.length === 0 && (
        <button type="button" onClick={() => void load(cursor)} className="m-2 rounded border border-zinc-300 py-1 text-sm dark:border-zinc-700">
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
