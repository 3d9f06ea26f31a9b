'use client';

import { z } from 'zod';
import { errorBodySchema } from '@/lib/http/error-body.client';

/** What the server answers for a stored upload (201). */
export const storedUploadSchema = z.object({ name: z.string(), size: z.number(), mediaType: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/), /** A project's dataset's id (a conversation's file has none). */ id: z.uuid().optional() });
export type StoredUpload = z.infer<typeof storedUploadSchema>;

/**
 * Where one upload is, as the browser can know it:
 * - `sending`: bytes are leaving the browser (`sent` of `total`, from the upload progress events);
 * - `storing`: every byte is sent; the server is finishing hashing and storing them and has not answered;
 * - `done`: the server answered with the stored file;
 * - `failed`: the server refused it (its own words: the JSON body's `error`) or could not be reached.
 */
export type UploadPhase =
  | { kind: 'sending'; sent: number; total: number }
  | { kind: 'storing' }
  | { kind: 'done'; stored: StoredUpload }
  | { kind: 'failed'; message: string };

export type UploadOutcome = Extract<UploadPhase, { kind: 'done' | 'failed' }>;

/** The fraction of a `sending` phase's bytes sent, 0…1. */
export function sentFraction(phase: Extract<UploadPhase, { kind: 'sending' }>): number {
  return phase.total > 0 ? Math.min(1, phase.sent / phase.total) : 0;
}

/**
 * POSTs `file` as the raw body, its name in `x-file-name` (URI-encoded), reporting each phase
 * through `onPhase` (the final one too) and resolving with the final one; it never rejects.
 * XMLHttpRequest rather than fetch: only it reports how many bytes of a request body are sent.
 */
export function uploadFile(url: string, file: Blob, name: string, onPhase: (phase: UploadPhase) => void, signal?: AbortSignal): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    let phase: UploadPhase['kind'] | null = null;
    const report = (next: UploadPhase) => {
      if (settled) return;
      phase = next.kind;
      onPhase(next);
      if (next.kind === 'done' || next.kind === 'failed') {
        settled = true;
        signal?.removeEventListener('abort', abort);
        resolve(next);
      }
    };
    const request = new XMLHttpRequest();
    const abort = () => {
      request.abort();
      report({ kind: 'failed', message: 'The upload was cancelled.' });
    };
    if (signal?.aborted) {
      report({ kind: 'failed', message: 'The upload was cancelled.' });
      return;
    }
    signal?.addEventListener('abort', abort);
    request.open('POST', url);
    request.setRequestHeader('x-file-name', encodeURIComponent(name));
    request.upload.onprogress = (event) => {
      // A progress event can still arrive after the last byte went (or after the answer).
      if (phase !== null && phase !== 'sending') return;
      const total = event.lengthComputable ? event.total : file.size;
      report({ kind: 'sending', sent: Math.min(event.loaded, total), total });
    };
    // Every byte is sent: what remains is the server's work (hashing, storing, recording).
    request.upload.onload = () => {
      if (phase === null || phase === 'sending') report({ kind: 'storing' });
    };
    request.onload = () => report(outcome(request.status, request.responseText));
    request.onerror = () => report({ kind: 'failed', message: 'The upload failed: the server could not be reached.' });
    request.ontimeout = () => report({ kind: 'failed', message: 'The upload failed: the server did not answer in time.' });
    report({ kind: 'sending', sent: 0, total: file.size });
    request.send(file);
  });
}

function outcome(status: number, text: string): UploadOutcome {
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null; // not JSON (a proxy's HTML page): worded below by its status
  }
  const stored = storedUploadSchema.safeParse(body);
  if (status === 201 && stored.success) return { kind: 'done', stored: stored.data };
  const said = errorBodySchema.safeParse(body);
  if (said.success && said.data.error !== '') return { kind: 'failed', message: said.data.error };
  return { kind: 'failed', message: status === 201 ? 'The server’s answer to the upload was not understood.' : `The upload failed (HTTP ${status}).` };
}
