'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { acceptedMediaType, ACCEPTED_DESCRIPTION, sanitizeFileName } from '@/lib/files/accept';
import type { Attachment } from '@/lib/messages/attachment';
import { newDropId, type DataFile, type DataFileLocation } from '@/lib/files/data-file';
import { rememberUpload } from '@/lib/files/dataset-cache.client';
import { defaultLocation } from '@/lib/files/default-location';
import { deviceStorageAvailable } from '@/lib/files/device-files.client';
import { keepOnDevice } from '@/lib/files/keep-on-device.client';
import { formatBytes } from '@/lib/format';
import { recordDeviceFile } from './device-file-request';
import { moveToAccount, moveToDevice } from './switch-location';
import { previewFile, withPreview } from './preview-file';
import { uploadFile, type UploadPhase } from './upload-request';

/**
 * One chip. `status` is what `data-upload-status` says: `keeping` (being copied into this device's
 * storage and hashed, `sent` of `size`), `sending` (bytes leaving the browser, `sent` of `size`),
 * `storing` (all sent, the server is hashing and storing them), `done` (stored: goes with the next
 * message) or `error` (refused, with the server's words). `location`: where its bytes live.
 */
export type Upload = {
  localId: string;
  name: string;
  size: number;
  location: DataFileLocation;
  status: 'keeping' | 'sending' | 'storing' | 'done' | 'error';
  /** Bytes sent or kept so far (meaningful while `sending` or `keeping`). */
  sent: number;
  error?: string;
  /** Why the last switch between this device and the account did not happen (the file stays where it is). */
  switchError?: string;
  stored?: Attachment;
  /** The dropped File and its drop id: the engines read it in place until it is kept (lib/files/data-file.ts, `dropped`). */
  dropped?: { id: string; file: File };
};

/** Not yet stored: the message cannot go while such a file is attached. */
export function isPending(upload: Upload): boolean {
  return upload.status === 'sending' || upload.status === 'storing' || upload.status === 'keeping';
}

/** Keeps `file` on this device and records it in the conversation (name, size, SHA-256); its attachment or the words of what failed. */
export async function keepAndRecord(
  conversationId: string,
  file: File,
  name: string,
  onProgress: (written: number) => void,
  signal?: AbortSignal,
): Promise<{ ok: true; file: Attachment } | { ok: false; message: string }> {
  const kept = await keepOnDevice(file, { name, mediaType: acceptedMediaType(file.name) ?? 'application/octet-stream', onProgress, signal });
  if (kept.kind !== 'kept') return { ok: false, message: kept.kind === 'failed' ? kept.message : 'The file changed while it was kept.' };
  return recordDeviceFile(conversationId, { name, size: kept.size, sha256: kept.sha256 });
}

/** Files dropped, pasted or picked: uploaded at once, shown as chips until the message is sent. */
/** `uploadFileBytes`: the instance's per-file upload limit (RUNPAD_UPLOAD_FILE_BYTES, from the client configuration). */
export function useUploads(conversationId: string, onStored: (file: Attachment) => void, uploadFileBytes: number) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  /** Uploads in flight, to cancel when their chip is removed or the page leaves the conversation. */
  const inFlight = useRef(new Map<string, AbortController>());
  useEffect(() => {
    const controllers = inFlight.current;
    return () => {
      for (const controller of controllers.values()) controller.abort();
      controllers.clear();
    };
  }, []);
  const update = (localId: string, change: Partial<Upload>) =>
    setUploads((list) => list.map((u) => (u.localId === localId ? { ...u, ...change } : u)));

  const add = useCallback(
    (files: File[]) => {
      for (const file of files) {
        const localId = crypto.randomUUID();
        const name = sanitizeFileName(file.name) ?? file.name;
        const location = defaultLocation(file.size, deviceStorageAvailable(), uploadFileBytes);
        const base: Upload = { localId, name, size: file.size, location, status: location === 'device' ? 'keeping' : 'sending', sent: 0 };
        const rejection = !acceptedMediaType(file.name)
          ? `“${file.name}” is not a supported type. Accepted: ${ACCEPTED_DESCRIPTION}.`
          : location === 'account' && file.size > uploadFileBytes
            ? `“${file.name}” is ${formatBytes(file.size)}; the limit is ${formatBytes(uploadFileBytes)} per file.`
            : null;
        if (rejection) {
          setUploads((list) => [...list, { ...base, status: 'error', error: rejection }]);
          continue;
        }
        setUploads((list) => [...list, { ...base, dropped: { id: newDropId(), file } }]);
        const controller = new AbortController();
        inFlight.current.set(localId, controller);
        const onPhase = (phase: UploadPhase) => {
          if (phase.kind === 'sending') update(localId, { status: 'sending', sent: phase.sent });
          // Committed at once: React may otherwise batch it with the answer that follows, and the
          // user would never see that every byte went and the server is storing them (a 60 MB
          // upload on a loaded machine went straight from sending to done).
          else if (phase.kind === 'storing') flushSync(() => update(localId, { status: 'storing', sent: file.size }));
        };
        // Without a preview the file is still added; the model is told its name and size only.
        const previewing = previewFile(file).catch((error: unknown) => {
          console.warn(`No preview of ${file.name} for the model: its first bytes could not be read.`, error);
          return null;
        });
        void (async () => {
          try {
            if (location === 'device') {
              const [recorded, preview] = await Promise.all([keepAndRecord(conversationId, file, name, (written) => update(localId, { sent: written }), controller.signal), previewing]);
              if (!recorded.ok) {
                update(localId, { status: 'error', error: recorded.message });
                return;
              }
              const attachment: Attachment = withPreview({ ...recorded.file, location: 'device' }, preview, file.name);
              update(localId, { status: 'done', sent: file.size, name: attachment.name, stored: attachment });
              onStored(attachment);
              return;
            }
            const [outcome, preview] = await Promise.all([uploadFile(`/api/conversations/${conversationId}/files`, file, file.name, onPhase, controller.signal), previewing]);
            if (outcome.kind === 'failed') {
              update(localId, { status: 'error', error: outcome.message });
              return;
            }
            const { stored } = outcome;
            const attachment: Attachment = withPreview({ ...stored, location: 'account' }, preview, file.name);
            update(localId, { status: 'done', sent: file.size, name: stored.name, stored: attachment });
            onStored(attachment);
            // The page has the bytes: the browser's dataset cache keeps them (checked against the
            // server's hash), so this file is not downloaded again to run code on it.
            void rememberUpload(file, stored.sha256);
          } catch (error) {
            update(localId, { status: 'error', error: error instanceof Error ? error.message : 'The upload failed.' });
          } finally {
            inFlight.current.delete(localId);
          }
        })();
      }
    },
    [conversationId, onStored, uploadFileBytes],
  );

  const remove = useCallback(
    (localId: string) => {
      inFlight.current.get(localId)?.abort();
      setUploads((list) => {
        const upload = list.find((u) => u.localId === localId);
        if (upload?.stored) {
          void fetch(`/api/conversations/${conversationId}/files?name=${encodeURIComponent(upload.stored.name)}`, { method: 'DELETE' });
        }
        return list.filter((u) => u.localId !== localId);
      });
    },
    [conversationId],
  );

  /** Moves a stored file to the other place (this device ⇄ the account), showing the transfer's progress on its chip. */
  const switchLocation = useCallback(
    (localId: string) => {
      const upload = uploads.find((u) => u.localId === localId);
      const stored = upload?.stored;
      if (!upload || !stored || upload.status !== 'done') return;
      const to: DataFileLocation = upload.location === 'device' ? 'account' : 'device';
      update(localId, { status: to === 'device' ? 'keeping' : 'sending', sent: 0, switchError: undefined });
      const progress = (done: number) => update(localId, { sent: done });
      void (async () => {
        const switched = to === 'account' ? await moveToAccount(conversationId, stored, uploadFileBytes, progress) : await moveToDevice(conversationId, stored, progress);
        if (!switched.ok) {
          update(localId, { status: 'done', sent: upload.size, switchError: switched.message });
          return;
        }
        const attachment: Attachment = { ...stored, location: switched.file.location };
        update(localId, { status: 'done', sent: upload.size, location: to, stored: attachment });
        onStored(attachment);
      })();
    },
    [uploads, conversationId, onStored, uploadFileBytes],
  );

  /** A file already on this device or in the account ("My datasets"), added without dropping it again: a chip, ready. */
  const addExisting = useCallback((file: Attachment) => {
    setUploads((list) => [...list, { localId: crypto.randomUUID(), name: file.name, size: file.size, location: file.location ?? 'account', status: 'done', sent: file.size, stored: file }]);
    onStored(file);
  }, [onStored]);

  const takeAttachments = useCallback((): Attachment[] => {
    const done = uploads.flatMap((u) => (u.stored ? [u.stored] : []));
    setUploads((list) => list.filter(isPending));
    return done;
  }, [uploads]);

  /** Files dropped and not kept yet, for the engines to read in place meanwhile (a query need not wait for the keep). */
  const inPlace = useMemo(() => uploads.flatMap((u): DataFile[] => (u.dropped && !u.stored && isPending(u) ? [{ name: u.name, location: 'dropped', dropId: u.dropped.id, file: u.dropped.file }] : [])), [uploads]);

  return { uploads, add, addExisting, remove, switchLocation, takeAttachments, inPlace, busy: uploads.some(isPending) };
}
