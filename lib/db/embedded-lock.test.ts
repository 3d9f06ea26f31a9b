import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedDatabaseInUseError, lockEmbeddedDatabase } from './embedded-lock.server';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-lock-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const writeLock = (directory: string, lock: { pid: number; host: string; holder: string }) => fs.writeFileSync(`${directory}.lock`, JSON.stringify(lock));
const readLock = (directory: string) => JSON.parse(fs.readFileSync(`${directory}.lock`, 'utf8')) as { pid: number; holder: string };

describe('the embedded database lock', () => {
  it('refuses while another live process on this host holds it, naming it; taken once that process is gone', async () => {
    const directory = path.join(root, 'held');
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      writeLock(directory, { pid: other.pid!, host: os.hostname(), holder: 'the Runpad server' });
      expect(() => lockEmbeddedDatabase(directory, 'npm run backup')).toThrow(EmbeddedDatabaseInUseError);
      expect(() => lockEmbeddedDatabase(directory, 'npm run backup')).toThrow(`is in use by the Runpad server (process ${other.pid}). Stop it first; if no such process runs, delete ${directory}.lock.`);
    } finally {
      other.kill();
      await once(other, 'exit');
    }
    const release = lockEmbeddedDatabase(directory, 'npm run backup');
    expect(readLock(directory)).toMatchObject({ pid: process.pid, holder: 'npm run backup' });
    release();
    expect(fs.existsSync(`${directory}.lock`)).toBe(false);
  });

  it('takes over a lock written on another host, or one that is not a lock', () => {
    const directory = path.join(root, 'elsewhere');
    writeLock(directory, { pid: process.ppid, host: `not-${os.hostname()}`, holder: 'the Runpad server' });
    lockEmbeddedDatabase(directory, 'a Runpad server')();
    fs.writeFileSync(`${directory}.lock`, 'garbage');
    const release = lockEmbeddedDatabase(directory, 'a Runpad server');
    expect(readLock(directory).pid).toBe(process.pid);
    release();
  });
});
