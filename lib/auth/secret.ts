/**
 * The secret that signs session cookies: AUTH_SECRET, or one generated on first start and kept
 * in RUNPAD_DATA_DIR/auth-secret (mode 0600) so sessions survive restarts.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

let cached: string | null = null;

export function getAuthSecret(env: NodeJS.ProcessEnv = process.env): string {
  if (cached) return cached;
  const configured = env.AUTH_SECRET?.trim();
  if (configured) {
    if (configured.length < 32) throw new Error('AUTH_SECRET must be at least 32 characters long.');
    cached = configured;
    return cached;
  }
  const file = path.resolve(env.RUNPAD_DATA_DIR || '.data', 'auth-secret');
  try {
    cached = fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
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
