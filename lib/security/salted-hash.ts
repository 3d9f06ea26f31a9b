/**
 * A file's hash as it is shown to anyone but the person who added the file (a share's reader, the
 * owner of a fork): HMAC-SHA256 of the lowercase hex SHA-256, keyed by a salt of the share it was
 * shown through, in lowercase hex; a file that came through several shares (a fork shared again)
 * is salted once per share, in order. The reader gets the salts with the value, so a dropped file is
 * still checked against it (the page computes the same value from the file's SHA-256), but two
 * shares of one file show unrelated values (they cannot be correlated) and the value is no SHA-256
 * to look up anywhere (no content oracle, no key to anyone's bytes). Web Crypto: the same code on
 * the server, in the page and in the keep worker.
 */
import { z } from 'zod';

/** A salt: 64 lowercase hex characters. */
export const hashSaltSchema = z.string().regex(/^[0-9a-f]{64}$/);
/** The salts a shown hash was made with, oldest first (empty: it is the file's own SHA-256). */
export const hashSaltsSchema = z.array(hashSaltSchema).max(16);

const encoder = new TextEncoder();
const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** The value shown for a file whose SHA-256 is `sha256` (lowercase hex), salted with each of `salts` in turn. */
export async function saltedHash(sha256: string, salts: readonly string[]): Promise<string> {
  let value = sha256;
  for (const salt of salts) {
    const key = await crypto.subtle.importKey('raw', encoder.encode(salt), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    value = hex(await crypto.subtle.sign('HMAC', key, encoder.encode(value)));
  }
  return value;
}

/** Whether a file whose SHA-256 is `sha256` is the one shown as `expected` (with its salts). */
export async function isExpectedFile(sha256: string, expected: { sha256: string; salts?: readonly string[] }): Promise<boolean> {
  return (await saltedHash(sha256, expected.salts ?? [])) === expected.sha256;
}

/** A share's salt, from its id (128 random bits, known to every reader of the link): one per share, unrelated across shares, and no way back to the id. */
export async function shareHashSalt(shareId: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', encoder.encode(`runpad share hash salt\u0000${shareId}`)));
}
