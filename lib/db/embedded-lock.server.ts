/**
 * One process at a time on an embedded database. PGlite cannot share its directory between
 * processes (two would each cache and write the same files), and its own postmaster.pid names no
 * process. So whoever opens it (the server, or `npm run backup`/`restore`/`move-to-postgres`)
 * first writes `<directory>.lock` with its process id and host; another process on the same host
 * that finds a live holder there is refused, with words naming the holder and what to do. A lock
 * whose process is gone (a crash, a killed container), or that another host wrote, is stale and
 * taken over. The file is removed when the holder closes the database or exits.
 */
import 'server-only';
import fs from 'node:fs';
import os from 'node:os';
import { z } from 'zod';

const lockSchema = z.object({ pid: z.number().int(), host: z.string(), holder: z.string() });
type LockInfo = z.infer<typeof lockSchema>;

export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly directory: string,
    readonly lock: LockInfo,
  ) {
    super(
      `The embedded database ${directory} is in use by ${lock.holder} (process ${lock.pid}). Stop it first; if no such process runs, delete ${directory}.lock.`,
    );
    this.name = 'EmbeddedDatabaseInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
}

function readLock(file: string): LockInfo | null {
  try {
    const parsed = lockSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Takes the lock of the embedded database at `directory` for `holder` (words: "the Runpad server"); returns its release. */
export function lockEmbeddedDatabase(directory: string, holder: string): () => void {
  const file = `${directory}.lock`;
  const mine: LockInfo = { pid: process.pid, host: os.hostname(), holder };
  for (;;) {
    try {
      fs.writeFileSync(file, JSON.stringify(mine), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = readLock(file);
    if (held && held.host === mine.host && held.pid !== process.pid && isAlive(held.pid)) throw new EmbeddedDatabaseInUseError(directory, held);
    fs.rmSync(file, { force: true }); // stale (or this process's own): take it over
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    if (readLock(file)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
  process.on('exit', release);
  return release;
}
