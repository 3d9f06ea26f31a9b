'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useState } from 'react';
import { z } from 'zod';

const pageSchema = z.object({
  items: z.array(z.object({ id: z.string(), title: z.string().nullable(), updatedAt: z.string() })),
  nextCursor: z.string().nullable(),
});
type Item = z.infer<typeof pageSchema>['items'][number];

/** The guest's conversations, newest first, with new, rename and delete. */
export function Sidebar({ currentId, refreshKey, open, onClose }: { currentId: string; refreshKey: number; open: boolean; onClose: () => void }) {
  const [items, setItems] = useState<Item[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const router = useRouter();

  const load = useCallback(async (after: string | null) => {
    const response = await fetch(`/api/conversations${after ? `?cursor=${encodeURIComponent(after)}` : ''}`);
    const parsed = pageSchema.safeParse(response.ok ? await response.json() : null);
    if (!parsed.success) {
      setError('Conversations could not be loaded.');
      return;
    }
    setError(null);
    setItems((previous) => (after ? [...previous, ...parsed.data.items] : parsed.data.items));
    setCursor(parsed.data.nextCursor);
  }, []);

  useEffect(() => {
    // Reload when a conversation is created, renamed or titled (refreshKey changes).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load(null);
  }, [load, refreshKey]);

  const rename = async (item: Item) => {
    const title = window.prompt('Rename conversation', item.title ?? '')?.trim();
    if (!title) return;
    const response = await fetch(`/api/conversations/${item.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    if (response.ok) setItems((list) => list.map((i) => (i.id === item.id ? { ...i, title } : i)));
    else setError('The conversation could not be renamed.');
  };

  const remove = async (item: Item) => {
    if (!window.confirm(`Delete “${item.title ?? 'Untitled'}”? Its messages, files and share links are deleted too.`)) return;
    const response = await fetch(`/api/conversations/${item.id}`, { method: 'DELETE' });
    if (!response.ok) {
      setError('The conversation could not be deleted.');
      return;
    }
    if (item.id === currentId) router.push('/');
    else setItems((list) => list.filter((i) => i.id !== item.id));
  };

  return (
    <nav
      aria-label="Conversations"
      className={`${open ? 'fixed inset-y-0 left-0 z-30 flex shadow-xl' : 'hidden'} w-72 flex-col border-r border-zinc-200 bg-zinc-50 md:static md:flex md:shadow-none dark:border-zinc-800 dark:bg-zinc-900`}
    >
      <div className="flex items-center gap-2 p-3">
        <Link href="/" className="flex-1 rounded-lg border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-white dark:border-zinc-700 dark:hover:bg-zinc-800">
          + New chat
        </Link>
        <button type="button" onClick={onClose} className="rounded px-2 py-1 text-sm md:hidden" aria-label="Close conversations">
          ✕
        </button>
      </div>
      {error && (
        <p role="alert" className="px-3 text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <ul className="min-h-0 flex-1 overflow-y-auto px-2 pb-3">
        {items.map((item) => (
          <li key={item.id} className={`group flex items-center rounded-lg ${item.id === currentId ? 'bg-zinc-200 dark:bg-zinc-800' : 'hover:bg-zinc-100 dark:hover:bg-zinc-800/60'}`}>
            <Link href={`/c/${item.id}`} aria-current={item.id === currentId ? 'page' : undefined} className="min-w-0 flex-1 truncate px-2 py-1.5 text-sm">
              {item.title ?? 'Untitled'}
            </Link>
            <button type="button" onClick={() => void rename(item)} className="px-1 text-xs text-zinc-700 hover:text-zinc-950 dark:text-zinc-300 dark:hover:text-white" aria-label={`Rename ${item.title ?? 'Untitled'}`}>
              Rename
            </button>
            <button type="button" onClick={() => void remove(item)} className="px-1 text-xs text-zinc-700 hover:text-zinc-950 dark:text-zinc-300 dark:hover:text-white" aria-label={`Delete ${item.title ?? 'Untitled'}`}>
              Delete
            </button>
          </li>
        ))}
        {items.length === 0 && !error && <li className="px-2 py-1.5 text-sm text-zinc-500">No conversations yet.</li>}
      </ul>
      {cursor && (
        <button type="button" onClick={() => void load(cursor)} className="m-2 rounded border border-zinc-300 py-1 text-sm dark:border-zinc-700">
          Load more
        </button>
      )}
    </nav>
  );
}
