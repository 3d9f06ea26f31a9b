/**
 * The app's version: package.json's `version` (CHANGELOG.md says what each one changed), read once
 * from the directory the server runs in, as lib/config.ts reads its engines' versions.
 */
import 'server-only';
import fs from 'node:fs';
import path from 'node:path';

let version: string | null = null;

export function appVersion(): string {
  version ??= (JSON.parse(fs.readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}
