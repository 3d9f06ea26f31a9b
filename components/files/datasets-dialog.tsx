'use client';

/**
 * "My datasets": every file kept on this device (OPFS, lib/files/device-files.client.ts) and every
 * file in the person's account (GET /api/datasets), one entry per SHA-256
 * (lib/files/datasets-library.ts), with sizes, when, the space used and what the browser allows.
 * Any of them is added to the open conversation without dropping it again (a chip, ready to go
 * with the next message); a kept file can be removed from this device, freeing its space (the
 * conversations that list it then say it is missing here).
 */
import { useCallback, useEffect, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import type { Attachment } from '@/lib/messages/attachment';
import { accountDatasetsResponseSchema, libraryTotals, mergeLibrary, type LibraryEntry } from '@/lib/files/datasets-library';
import { deviceFile, DeviceFileInUseError, listDeviceFiles, removeDeviceFile } from '@/lib/files/device-files.client';
import { storageWords } from '@/lib/files/keep-on-device.client';
import { formatBytes } from '@/lib/format';
import { failureWords, readJsonAs } from '@/lib/http/error-body.client';
import { recordDeviceFile } from './device-file-request';
import { previewFile, withPreview } from './preview-file';

type Loaded = { entries: LibraryEntry[]; storage: string | null; accountError: string | null };

async function loadLibrary(): Promise<Loaded> {
  const [device, account, storage] = await Promise.all([
    listDeviceFiles(),
    fetch('/api/datasets')
      .then(async (response) => (response.ok ? ((await readJsonAs(response, accountDatasetsResponseSchema)) ?? 'The server’s answer was not understood.') : failureWords(response, 'Your account’s files could not be listed.')))
      .catch((error: unknown) => {
        if (error instanceof TypeError) return 'The server could not be reached: only the files on this device are listed.';
        throw error;
      }),
    storageWords(),
  ]);
  const accountFiles = typeof account === 'string' ? [] : account.files;
  return { entries: mergeLibrary(device, accountFiles), storage, accountError: typeof account === 'string' ? account : null };
}

/** Adds a library entry to the conversation: by its record (kept here) or by linking the account's blob. */
async function addToConversation(conversationId: string, entry: LibraryEntry): Promise<{ ok: true; file: Attachment } | { ok: false; message: string }> {
  if (entry.onDevice) {
    const recorded = await recordDeviceFile(conversationId, { name: entry.name, size: entry.size, sha256: entry.sha256 });
    if (!recorded.ok) return recorded;
    const kept = await deviceFile(entry.sha256);
    const preview = kept ? await previewFile(new File([kept], entry.name)).catch(() => null) : null;
    return { ok: true, file: withPreview({ ...recorded.file, location: 'device' }, preview, entry.name) };
  }
  const response = await fetch(`/api/conversations/${conversationId}/files/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sha256: entry.sha256, name: entry.name }) }).catch((error: unknown) => {
    if (error instanceof TypeError) return null;
    throw error;
  });
  if (response?.status === 201) {
    const file = await readJsonAs(response, accountDatasetsResponseSchema.shape.files.element.pick({ name: true, size: true, mediaType: true, sha256: true }));
    return file ? { ok: true, file: { ...file, location: 'account' } } : { ok: false, message: 'The server’s answer was not understood.' };
  }
  return { ok: false, message: await failureWords(response, 'The file could not be added: the server could not be reached.') };
}

type Props = { open: boolean; onClose: () => void; conversationId: string; onAdd: (file: Attachment) => void };

export function DatasetsDialog({ open, onClose, conversationId, onAdd }: Props) {
  // The dialog mounts its content only while open: each opening reads the library afresh.
  return (
    <Dialog wide open={open} onClose={onClose} title="My datasets" description="Files kept on this device and in your account. Add one to this conversation without dropping it again.">
      <DatasetsList onClose={onClose} conversationId={conversationId} onAdd={onAdd} />
    </Dialog>
  );
}

function DatasetsList({ onClose, conversationId, onAdd }: Omit<Props, 'open'>) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [message, setMessage] = useState<{ text: string; alert: boolean } | null>(null);
  const reload = useCallback(() => {
    void loadLibrary().then(setLoaded, (error: unknown) => {
      console.warn('My datasets could not be listed:', error);
      setMessage({ text: 'The datasets could not be listed: this browser’s storage did not answer. Reload the page to try again.', alert: true });
    });
  }, []);
  useEffect(reload, [reload]);
  const failed = (error: unknown) => {
    console.warn('A dataset action failed:', error);
    setMessage({ text: 'That did not work: this browser’s storage or the server did not answer. Try again.', alert: true });
  };
  const totals = loaded ? libraryTotals(loaded.entries) : null;
  return (
      <div data-testid="datasets-dialog" className="max-h-[60vh] overflow-y-auto text-sm">
        {!loaded && !message && <p role="status">Reading the datasets…</p>}
        {totals && (
          <p data-testid="datasets-space" className="mb-2 text-zinc-600 dark:text-zinc-400">
            On this device: {formatBytes(totals.deviceBytes)}{loaded?.storage ? ` (${loaded.storage})` : ''}. In your account: {formatBytes(totals.accountBytes)}.
          </p>
        )}
        {loaded?.accountError && <p role="alert" className="mb-2 text-red-700 dark:text-red-300">{loaded.accountError}</p>}
        {message && <p role={message.alert ? 'alert' : 'status'} className={message.alert ? 'mb-2 text-red-700 dark:text-red-300' : 'mb-2'}>{message.text}</p>}
        {loaded && loaded.entries.length === 0 && <p>No datasets yet: drop a file on a conversation.</p>}
        {loaded && loaded.entries.length > 0 && (
          <ul aria-label="Datasets" className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {loaded.entries.map((entry) => (
              <li key={entry.sha256} data-sha256={entry.sha256} data-on-device={entry.onDevice} data-in-account={entry.inAccount} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
                <span className="min-w-[10rem] flex-1 truncate font-mono">{entry.name}</span>
                <span className="text-zinc-600 dark:text-zinc-400">{formatBytes(entry.size)}</span>
                <span className="text-zinc-600 dark:text-zinc-400">{[entry.onDevice && 'on this device', entry.inAccount && 'in your account'].filter(Boolean).join(', ')}</span>
                <span className="text-zinc-600 dark:text-zinc-400">{new Date(entry.at).toLocaleDateString('en-US', { dateStyle: 'medium' })}</span>
                <button
                  type="button"
                  className="underline"
                  aria-label={`Add ${entry.name} to this conversation`}
                  onClick={() =>
                    void addToConversation(conversationId, entry).then((added) => {
                      if (!added.ok) return setMessage({ text: added.message, alert: true });
                      onAdd(added.file);
                      setMessage({ text: `${added.file.name} was added to this conversation; it goes with your next message.`, alert: false });
                    }, failed)
                  }
                >
                  Add
                </button>
                {entry.onDevice && (
                  <button
                    type="button"
                    className="underline"
                    aria-label={`Remove ${entry.name} from this device`}
                    onClick={() =>
                      void removeDeviceFile(entry.sha256).then(
                        () => {
                          setMessage({ text: `${entry.name} was removed from this device (${formatBytes(entry.size)} freed). Conversations that use it will ask for it again.`, alert: false });
                          reload();
                        },
                        (error: unknown) => (error instanceof DeviceFileInUseError ? setMessage({ text: `${entry.name}: ${error.message}`, alert: true }) : failed(error)),
                      )
                    }
                  >
                    Remove from this device
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <div className="mt-3 flex justify-end">
          <button type="button" onClick={onClose} className="rounded border border-zinc-300 px-3 py-1 dark:border-zinc-700">
            Close
          </button>
        </div>
      </div>
  );
}
