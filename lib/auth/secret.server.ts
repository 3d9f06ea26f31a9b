/**
 * The secret that signs session cookies: AUTH_SECRET, or one generated on first start and kept
 * in RUNPAD_DATA_DIR/auth-secret (mode 0600) so sessions survive restarts. Both come from
 * lib/config.server.ts (the one reader of the environment).
 */
import 'server-only';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { getConfig } from '@/lib/config.server';
import { mkdirPrivate } from '@/lib/security/private-files.server';

let cached: string | null = null;

export function getAuthSecret(settings: { authSecret: string | null; dataDir: string } = getConfig()): string {
  if (cached) return cached;
  if (settings.authSecret) {
    cached = settings.authSecret;
    return cached;
  }
  const file = path.join(settings.dataDir, 'auth-secret');
  try {
    cached = fs.readFileSync(file, 'utf8').trim();
  } catch {
    mkdirPrivate(path.dirname(file));
    const secret = randomBytes(32).toString('base64url');
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      cached = secret;
    } catch {
      cached = fs.readFileSync(file, 'utf8').trim(); // another process wrote it first
    }
  }
  return cached;
}

/** For tests: forget the cached secret. */
export function resetAuthSecretCache(): void {
  cached = null;
}
