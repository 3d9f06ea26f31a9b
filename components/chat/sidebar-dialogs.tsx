'use client';

import { useRef, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { titleOf, type SidebarItem } from './sidebar-row';

const MAX_TITLE = 200;

const secondary = 'rounded-lg border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-600 dark:hover:bg-zinc-800';

/** What the dialog shows after a rename or delete: a refusal is words in the dialog, not an exception. */
type Outcome = { ok: true } | { ok: false; message: string };

type DialogProps = {
  item: SidebarItem | null;
  onClose: () => void;
  fallbackFocus?: () => HTMLElement | null;
};

/** Rename: the current title, selected; Enter saves, Esc cancels. */
export function RenameDialog({ item, onClose, onRename }: DialogProps & { onRename: (item: SidebarItem, title: string) => Promise<Outcome> }) {
  return (
    <Dialog open={item !== null} onClose={onClose} title="Rename conversation">
      {item && <RenameForm key={item.id} item={item} onClose={onClose} onRename={onRename} />}
    </Dialog>
  );
}

function RenameForm({ item, onClose, onRename }: { item: SidebarItem; onClose: () => void; onRename: (item: SidebarItem, title: string) => Promise<Outcome> }) {
  const [value, setValue] = useState(item.title ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const title = value.trim();
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        if (!title || busy) return;
        setBusy(true);
        const outcome = await onRename(item, title);
        setBusy(false);
        if (outcome.ok) onClose();
        else setError(outcome.message);
      }}
    >
      <label htmlFor="rename-title" className="block text-sm font-medium">
        Title
      </label>
      <input
        id="rename-title"
        value={value}
        maxLength={MAX_TITLE}
        onChange={(event) => setValue(event.target.value)}
        onFocus={(event) => event.currentTarget.select()}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'rename-error' : undefined}
        className="mt-1 block w-full rounded-lg border border-zinc-300 bg-transparent px-2 py-1.5 text-sm dark:border-zinc-600"
      />
      {error && (
        <p id="rename-error" role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" onClick={onClose} className={secondary}>
          Cancel
        </button>
        <button type="submit" disabled={!title || busy} className="rounded-lg bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-50">
          Rename
        </button>
      </div>
    </form>
  );
}

/** Delete: says what goes with it; Cancel has focus, so Enter alone deletes nothing. */
export function DeleteDialog({ item, onClose, fallbackFocus, onDelete }: DialogProps & { onDelete: (item: SidebarItem) => Promise<Outcome> }) {
  const cancel = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <Dialog
      open={item !== null}
      onClose={close}
      title="Delete conversation?"
      description={item && <p>“{titleOf(item)}” will be deleted, with its messages, files and share links. This cannot be undone.</p>}
      initialFocus={cancel}
      fallbackFocus={fallbackFocus}
    >
      {error && (
        <p role="alert" className="mb-3 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <button ref={cancel} type="button" onClick={close} className={secondary}>
          Cancel
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={async () => {
            if (!item) return;
            setBusy(true);
            const outcome = await onDelete(item);
            setBusy(false);
            if (outcome.ok) close();
            else setError(outcome.message);
          }}
          className="rounded-lg bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-50"
        >
          Delete
        </button>
      </div>
    </Dialog>
  );
}
