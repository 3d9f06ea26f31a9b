/**
 * A request's path as the log writes it. A share link's id is its capability (whoever holds it
 * reads the conversation and forks it), and logs are read by more people and kept longer than
 * the database: the id is replaced by a fingerprint that matches one share across lines and
 * cannot be used to open it.
 */
import 'server-only';
import { createHash } from 'node:crypto';

const CAPABILITY_SEGMENT = /^(\/api\/shares\/)([^/]+)/;

export function loggedPath(url: string): string {
  const { pathname } = new URL(url);
  return pathname.replace(CAPABILITY_SEGMENT, (_, prefix: string, id: string) => `${prefix}share~${createHash('sha256').update(id).digest('base64url').slice(0, 8)}`);
}
