'use client';

import { useCallback, useState } from 'react';
import { z } from 'zod';
import { acceptedMediaType, ACCEPTED_DESCRIPTION, sanitizeFileName, UPLOAD_LIMITS } from '@/lib/files/accept';
import type { Attachment } from '@/lib/files/attachment';
import { formatBytes } from '@/lib/format';
import { previewFile } from './preview-file';

export type Upload = {
  localId: string;
  name: string;
  size: number;
  progress: number;
  status: 'uploading' | 'done' | 'error';
  error?: string;
  stored?: Attachment;
};

const storedSchema = z.object({ name: z.string(), size: z.number(), mediaType: z.string(), sha256: z.string() });

function send(url: string, file: File, onProgress: (fraction: number) => void): Promise<{ status: number; body: unknown }> {
  // XMLHttpRequest rather than fetch: it reports upload progress.
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.setRequestHeader('x-file-name', encodeURIComponent(file.name));
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = null;
      }
      resolve({ status: request.status, body });
    };
    request.onerror = () => reject(new Error('The upload failed: the server could not be reached.'));
    request.send(file);
  });
}

/** Files dropped, pasted or picked: uploaded at once, shown as chips until the message is sent. */
export function useUploads(conversationId: string, onStored: (file: Attachment) => void) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const update = (localId: string, change: Partial<Upload>) =>
    setUploads((list) => list.map((u) => (u.localId === localId ? { ...u, ...change } : u)));

  const add = useCallback(
    (files: File[]) => {
      for (const file of files) {
        const localId = crypto.randomUUID();
        const base: Upload = { localId, name: sanitizeFileName(file.name) ?? file.name, size: file.size, progress: 0, status: 'uploading' };
        const rejection = !acceptedMediaType(file.name)
          ? `“${file.name}” is not a supported type. Accepted: ${ACCEPTED_DESCRIPTION}.`
          : file.size > UPLOAD_LIMITS.fileBytes
            ? `“${file.name}” is ${formatBytes(file.size)}; the limit is ${formatBytes(UPLOAD_LIMITS.fileBytes)} per file.`
            : null;
        if (rejection) {
          setUploads((list) => [...list, { ...base, status: 'error', error: rejection }]);
          continue;
        }
        setUploads((list) => [...list, base]);
        void (async () => {
          try {
            const [response, preview] = await Promise.all([
              send(`/api/conversations/${conversationId}/files`, file, (progress) => update(localId, { progress })),
              previewFile(file),
            ]);
            const stored = storedSchema.safeParse(response.body);
            if (response.status !== 201 || !stored.success) {
              const message = (response.body as { error?: string } | null)?.error ?? `The upload failed (HTTP ${response.status}).`;
              update(localId, { status: 'error', error: message });
              return;
            }
            const attachment: Attachment = { ...stored.data, preview: preview.replace(file.name, stored.data.name) };
            update(localId, { status: 'done', progress: 1, name: stored.data.name, stored: attachment });
            onStored(attachment);
          } catch (error) {
            update(localId, { status: 'error', error: error instanceof Error ? error.message : 'The upload failed.' });
          }
        })();
      }
    },
    [conversationId, onStored],
  );

  const remove = useCallback(
    (localId: string) => {
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

  const takeAttachments = useCallback((): Attachment[] => {
    const done = uploads.flatMap((u) => (u.stored ? [u.stored] : []));
    setUploads((list) => list.filter((u) => u.status === 'uploading'));
    return done;
  }, [uploads]);

  return { uploads, add, remove, takeAttachments, busy: uploads.some((u) => u.status === 'uploading') };
}
