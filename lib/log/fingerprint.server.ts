/**
 * An email as the log writes it: a keyed fingerprint (`email~` and 12 characters of an HMAC-SHA-256
 * under a key derived from the auth secret), the same for one address however its letters are
 * cased, so an operator can match one person's lines, and useless to whoever reads the log without
 * the secret (no dictionary of addresses reverses it).
 */
import 'server-only';
import { createHmac } from 'node:crypto';

/** Something written as an address (`local@domain.tld`), however odd its local part (quotes, plus signs). */
const EMAIL = /[^\s@<>()[\]",;:]+@[^\s@<>()[\]",;:'`]+\.[^\s@<>()[\]",;:'`.]+/g;

/** The key fingerprints are made with: derived from `secret`, so the secret itself signs nothing here. */
export function fingerprintKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('runpad log fingerprint').digest();
}

export function emailFingerprint(email: string, key: Buffer): string {
  return `email~${createHmac('sha256', key).update(email.trim().toLowerCase()).digest('base64url').slice(0, 12)}`;
}

/** The addresses written in `text`, in order. */
export function emailsIn(text: string): string[] {
  return text.match(EMAIL) ?? [];
}
