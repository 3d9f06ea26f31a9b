/**
 * What Runpad writes under its data directory is its own: folders 0700, files 0600. The embedded
 * database's write-ahead log holds session tokens, the blobs are people's files, `auth-secret`
 * signs every session; another local account on the host reads none of them. Every process that
 * writes there starts with a umask of 077 (the server at its start hook, instrumentation.ts; the
 * operator's commands, lib/ops/cli.server.ts), folders are made with mode 0700, and a tree written
 * with modes of its own (PGlite sets its cluster's files to 0666 as it unpacks them) is made
 * private after. At start, anything looser already there is named in a warning.
 */
import 'server-only';
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** The permission bits of the group and of others. */
const SHARED_BITS = 0o077;

/** Every file and folder this process creates from now on is its owner's alone. */
export function makeWritesPrivate(): void {
  process.umask(SHARED_BITS);
}

/** `dir` and any missing parent, made 0700. */
export function mkdirPrivate(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Every folder under `root` (itself included) 0700, every file 0600; links are not followed. */
export function makeTreePrivate(root: string): void {
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      if ((stat.mode & 0o777) !== PRIVATE_DIR_MODE) fs.chmodSync(entry, PRIVATE_DIR_MODE);
      for (const child of fs.readdirSync(entry)) visit(path.join(entry, child));
    } else if ((stat.mode & SHARED_BITS) !== 0) fs.chmodSync(entry, stat.mode & 0o700);
  };
  visit(root);
}

/** The folders and files under `root` (itself included) that another local account could read, enter or write. */
export function looserThanPrivate(root: string): string[] {
  const found: string[] = [];
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) return;
    if ((stat.mode & SHARED_BITS) !== 0) found.push(entry);
    if (stat.isDirectory()) for (const child of fs.readdirSync(entry)) visit(path.join(entry, child));
  };
  visit(root);
  return found;
}
