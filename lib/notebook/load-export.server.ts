/**
 * What the export routes (`/api/conversations/<id>/notebook|script`, `/api/shares/<id>/notebook|script`)
 * hand to the exporters, with the access rules of the rest of the app:
 * - a conversation: whoever the one rule lets export it (its owner, its readers), its current
 *   messages, images through the conversation's own references;
 * - a share: an active link only, its snapshot (never the conversation's current messages), and
 *   only the blobs that share grants (what its snapshot recorded).
 *
 * Images are embedded as base64 only when the reference says PNG or JPEG and the bytes are at most
 * 5 MB each; the embedded images of one export are also capped together (in the order the
 * conversation shows them), so a public link cannot make one request hold hundreds of megabytes.
 * Anything else is left out of the notebook (the exporter notes that the image is unavailable).
 */
import 'server-only';
import { getBlobStore } from '@/lib/files/app-blob-store.server';
import { readWhole } from '@/lib/blobs/read-whole.server';
import { getDb } from '@/lib/db/client.server';
import { getBlobForConversation, getBlobForShare, type BlobRef } from '@/lib/db/queries/blobs.server';
import { getConversationById } from '@/lib/db/queries/conversations.server';
import { authorize, type Subject } from '@/lib/access/authorize.server';
import { listMessages, type StoredMessage } from '@/lib/db/queries/messages.server';
import { getShare } from '@/lib/db/queries/shares.server';
import { askingSubject, conversationIdSchema, idOrNotFound, requireUser, shareIdSchema } from '@/lib/http/session.server';
import { AppError } from '@/lib/errors.server';
import { notebookFileName, toNotebook } from './to-ipynb.server';
import { scriptFormat, toScript } from './to-script.server';
import { IMAGE_MIME_TYPES } from '@/lib/runtime/mime-types';

export type ExportSource = {
  title: string | null;
  messages: StoredMessage[];
  /** Base64 of an image the conversation shows, or null when it is not embedded. */
  resolveImage: (sha256: string) => Promise<string | null>;
};

const EMBEDDED_MEDIA_TYPES: ReadonlySet<string> = new Set(IMAGE_MIME_TYPES);
export const MAX_EMBEDDED_IMAGE_BYTES = 5 * 1024 * 1024;
/** All embedded images of one export together. */
export const MAX_EMBEDDED_TOTAL_BYTES = 50 * 1024 * 1024;

/** Blob references under an image media type, in the order the messages show them. */
const IMAGE_BLOB_REF = /"image\/[^"]*":"blob:([0-9a-f]{64})"/g;

export function imageBlobsInOrder(messages: StoredMessage[]): string[] {
  return [...new Set([...JSON.stringify(messages.map((m) => m.parts)).matchAll(IMAGE_BLOB_REF)].map((match) => match[1]))];
}

function isEmbeddable(ref: BlobRef): boolean {
  const type = ref.mediaType.split(';')[0].trim().toLowerCase();
  return EMBEDDED_MEDIA_TYPES.has(type) && ref.size >= 0 && ref.size <= MAX_EMBEDDED_IMAGE_BYTES;
}

/**
 * A resolver that embeds only images granted by `lookup` (the access check), of an allowed type
 * and size, within the total budget. The plan is made once, on the first image asked for.
 */
function imageResolver(messages: StoredMessage[], lookup: (sha256: string) => Promise<BlobRef | null>): ExportSource['resolveImage'] {
  let plan: Promise<Set<string>> | null = null;
  const makePlan = async () => {
    const shas = imageBlobsInOrder(messages);
    const refs = await Promise.all(shas.map((sha) => lookup(sha)));
    const granted = new Set<string>();
    let total = 0;
    for (const ref of refs) {
      if (!ref || !isEmbeddable(ref) || total + ref.size > MAX_EMBEDDED_TOTAL_BYTES) continue;
      total += ref.size;
      granted.add(ref.sha256);
    }
    return granted;
  };
  return async (sha256) => {
    plan ??= makePlan();
    if (!(await plan).has(sha256)) return null;
    const bytes = await readWhole(await getBlobStore(), sha256);
    if (!bytes || bytes.byteLength > MAX_EMBEDDED_IMAGE_BYTES) return null;
    return bytes.toString('base64');
  };
}

/**
 * The conversation (current messages) for whoever may export it (its owner, its readers: the one
 * rule, lib/access/authorize.server.ts), with its owner; images through the conversation's own
 * references. Throws the rule's refusal (the same 404 for a malformed id, one that names nothing and
 * one the asker may not read).
 */
export async function loadConversationExport(who: Subject, id: string): Promise<ExportSource & { ownerId: string }> {
  const db = await getDb();
  await authorize(db, who, 'export', { conversation: id });
  const conversation = await getConversationById(db, id);
  if (!conversation) throw new AppError('conversation:not_found', { reason: 'conversation gone' });
  const messages = await listMessages(db, id);
  return { title: conversation.title, messages, ownerId: conversation.ownerId, resolveImage: imageResolver(messages, (sha) => getBlobForConversation(db, id, sha)) };
}

/**
 * The one check of the conversation download routes (notebook, script, bundle): the person
 * asking, the conversation id from the URL, and its export with its author's id (whose file
 * records the bundle reads) when the one rule lets them export it (its owner, its readers); the
 * same 404 for a malformed id, one that names nothing and one they may not read.
 */
export async function ownConversationExport(rawId: unknown): Promise<{ asker: Subject; authorId: string; conversationId: string; source: ExportSource }> {
  const user = await requireUser();
  const conversationId = idOrNotFound(conversationIdSchema, rawId, 'conversation:not_found', 'conversation id');
  const { ownerId, ...source } = await loadConversationExport(user, conversationId);
  return { asker: user, authorId: ownerId, conversationId, source };
}

/**
 * An active share's snapshot, or null when the id is malformed, unknown or revoked; throws the
 * refusal when the link does not open for whoever asks (signed-in people's link, links off).
 */
export async function loadShareExport(shareId: string): Promise<ExportSource | null> {
  if (!shareIdSchema.safeParse(shareId).success) return null;
  const db = await getDb();
  await authorize(db, await askingSubject(), 'export', { share: shareId });
  const share = await getShare(db, shareId);
  if (!share) return null;
  return { title: share.title, messages: share.messages, resolveImage: imageResolver(share.messages, (sha) => getBlobForShare(db, share.id, sha)) };
}

// ---------------------------------------------------------------------------------------------
// The download responses

export const NOTEBOOK_CONTENT_TYPE = 'application/x-ipynb+json';
export const SCRIPT_CONTENT_TYPE = 'text/x-python; charset=utf-8';

/** RFC 5987 value characters (attr-char); everything else percent-encoded as UTF-8. */
function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `attachment; filename="…"`, plus `filename*=UTF-8''…` when the name is not plain ASCII. */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const extended = /[^\x20-\x7e]/.test(fileName) ? `; filename*=UTF-8''${rfc5987(fileName)}` : '';
  return `attachment; filename="${ascii}"${extended}`;
}

export function downloadResponse(body: string, contentType: string, fileName: string): Response {
  return new Response(body, {
    headers: {
      'content-type': contentType,
      'content-disposition': attachmentDisposition(fileName),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      // Even opened directly, the file is not a document that can run anything.
      'content-security-policy': "default-src 'none'; sandbox",
    },
  });
}

/** The notebook as Jupyter writes it: one-space indentation, a final newline. */
export async function notebookResponse(source: ExportSource): Promise<Response> {
  const notebook = await toNotebook(source);
  return downloadResponse(`${JSON.stringify(notebook, null, 1)}\n`, NOTEBOOK_CONTENT_TYPE, notebookFileName(source.title));
}

export function scriptResponse(source: ExportSource): Response {
  const format = scriptFormat(source);
  return downloadResponse(toScript(source), format.contentType, format.fileName);
}
