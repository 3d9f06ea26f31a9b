/**
 * Which media types the app serves inline from its own origin. Anything else — HTML, SVG, XML,
 * scripts, unknown types — is served as an `application/octet-stream` attachment, so a stored
 * file can never become a page on the app's origin (phishing, script). One list, used by the
 * blob route and by the routes that store what a run wrote.
 */
import 'server-only';
import { ACCEPTED_MEDIA_TYPES } from './accept';

const INLINE_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'text/plain',
  'text/csv',
  'text/tab-separated-values',
  'application/json',
  'application/x-ndjson',
]);

/** Types a stored file may keep; others are recorded as application/octet-stream. */
const STORABLE_MEDIA_TYPES: ReadonlySet<string> = new Set([...INLINE_MEDIA_TYPES, ...ACCEPTED_MEDIA_TYPES, 'application/pdf', 'application/zip', 'image/gif', 'image/webp']);

const MEDIA_TYPE_SYNTAX = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/** The media type to record for a file whose producer declared `declared`. */
export function storableMediaType(declared: string | null | undefined): string {
  const type = (declared ?? '').split(';')[0].trim().toLowerCase();
  return MEDIA_TYPE_SYNTAX.test(type) && STORABLE_MEDIA_TYPES.has(type) ? type : 'application/octet-stream';
}

/** Headers that say what the bytes are and how the browser may show them. */
export function servingHeaders(mediaType: string, fileName?: string): Record<string, string> {
  const inline = INLINE_MEDIA_TYPES.has(mediaType);
  const name = fileName ? `; filename*=UTF-8''${encodeURIComponent(fileName)}` : '';
  return {
    'content-type': inline ? (mediaType.startsWith('text/') ? `${mediaType}; charset=utf-8` : mediaType) : 'application/octet-stream',
    'content-disposition': inline ? `inline${name}` : `attachment${name}`,
    'x-content-type-options': 'nosniff',
    // Even opened directly, stored bytes are not a document that can run anything.
    'content-security-policy': "default-src 'none'; sandbox",
  };
}
