'use client';

/**
 * The sidebar's list of the person's conversations: its pages (loaded again when `refreshKey`
 * changes), the search over every title (case and accents aside), grouping by date, and renaming
 * and deleting a conversation on the server. The open conversation's row shows `currentName`, what
 * the header shows, so the two agree at every moment (lib/messages/shown-title.ts); `onCurrentTitle`
 * hears the open conversation's own title as the list has it (null when the list does not hold it
 * or it has none yet).
 */
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import { groupByDate } from '@/lib/chat/group-by-date.client';
import { failureWords } from '@/lib/http/error-body.client';
import { titleOf, type SidebarItem } from './sidebar-row';

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

/** What a rename or a delete came to: done, or the words that say why not. */
export type ListChange = { ok: true } | { ok: false; message: string };

export function useConversationList({
  currentId,
  currentName,
  refreshKey,
  query,
  onCurrentTitle,
}: {
  currentId: string;
  currentName: string;
  refreshKey: number;
  query: string;
  onCurrentTitle: (title: string | null) => void;
}) {
  const [list, setList] = useState<{ items: SidebarItem[]; loadedAt: Date }>({ items: [], loadedAt: new Date(0) });
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const loading = useRef(false);
  const router = useRouter();

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
    // Reload when a conversation is created, renamed or titled (refreshKey changes). The list's
    // state changes when the server answers, not in this effect's body.
    // eslint-disable-next-line react-hooks/set-state-in-effect
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

  const rename = async (item: SidebarItem, title: string): Promise<ListChange> => {
    const response = await fetch(`/api/conversations/${item.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    }).catch(() => null); // no answer: worded below like a refusal
    if (!response?.ok) return { ok: false, message: await failureWords(response, 'The conversation could not be renamed. Try again.') };
    setList((previous) => ({ ...previous, items: previous.items.map((i) => (i.id === item.id ? { ...i, title, titled: true } : i)) }));
    return { ok: true };
  };

  const remove = async (item: SidebarItem): Promise<ListChange> => {
    const response = await fetch(`/api/conversations/${item.id}`, { method: 'DELETE' }).catch(() => null); // no answer: worded below
    if (!response?.ok) return { ok: false, message: await failureWords(response, 'The conversation could not be deleted. Try again.') };
    setList((previous) => ({ ...previous, items: previous.items.filter((i) => i.id !== item.id) }));
    if (item.id === currentId) router.push('/');
    return { ok: true };
  };

  /** Loads the next page (the "Load more" button), when there is one. */
  const loadMore = cursor && terms.length === 0 ? () => void load(cursor) : null;

  return { error, searching: terms.length > 0, shown, groups, rename, remove, loadMore };
}
