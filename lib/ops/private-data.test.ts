/**
 * Everything Runpad writes under its data directory is its own: folders 0700, files 0600, however
 * permissive the umask it was started with (the usual 022 here). Each command runs as an operator
 * starts it, in a process of its own: a server's start and first writes (the embedded database,
 * the generated auth secret, an uploaded file), `npm run backup` (its archive too) and `npm run
 * restore` into a new data directory. A start on a data directory that holds something looser
 * warns, naming the path and the command that fixes it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-private-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Only the Runpad settings given: an embedded database under `dataDir`, a generated secret. */
function environment(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, RUNPAD_DATA_DIR: dataDir, NODE_NO_WARNINGS: '1', npm_config_update_notifier: 'false', NEXT_RUNTIME: 'nodejs', RUNPAD_LOG_LEVEL: 'info' };
  for (const name of Object.keys(env)) if (name === 'DATABASE_URL' || name === 'AUTH_SECRET' || name === 'REDIS_URL' || name.startsWith('S3_') || name === 'VITEST' || name === 'NODE_ENV') delete env[name];
  return env;
}

/** Starts a server's work on `dataDir` in a process of its own (lib/testing/start-instance.ts), with the usual umask; its output. */
async function start(dataDir: string): Promise<string> {
  const { stdout } = await run('sh', ['-c', 'umask 022 && exec node --conditions=react-server --import tsx lib/testing/start-instance.ts'], { cwd: process.cwd(), env: environment(dataDir) });
  return stdout;
}

async function npmRun(script: string, args: string[], dataDir: string): Promise<void> {
  await run('sh', ['-c', `umask 022 && exec npm run ${script} -- ${args.map((a) => `'${a}'`).join(' ')}`], { cwd: process.cwd(), env: environment(dataDir) });
}

/** Every entry under `dir` (and `dir` itself) that another local account could read, enter or write, with its mode. */
function looser(dir: string): string[] {
  const found: string[] = [];
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) found.push(`${path.relative(root, entry) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const child of fs.readdirSync(entry)) visit(path.join(entry, child));
  };
  visit(dir);
  return found;
}

describe('the data directory is readable by Runpad alone', () => {
  const source = path.join(root, 'source');
  const archive = path.join(root, 'backups', 'runpad.tar.gz');

  it('after a start and its first writes: the database, the auth secret, a file’s blob', async () => {
    await start(source);
    expect(fs.readdirSync(source).sort()).toEqual(expect.arrayContaining(['auth-secret', 'blobs', 'pglite']));
    expect(looser(source)).toEqual([]);
  }, 120_000);

  it('after a backup (the archive too) and a restore into a new data directory', async () => {
    await npmRun('backup', [archive], source);
    expect(looser(archive)).toEqual([]);
    const restored = path.join(root, 'restored');
    await npmRun('restore', [archive], restored);
    expect(fs.readdirSync(restored)).toEqual(expect.arrayContaining(['pglite']));
    expect(looser(restored)).toEqual([]);
    expect(looser(source)).toEqual([]);
  }, 180_000);

  it('a start on a data directory holding something looser warns, naming it and the fix', async () => {
    const planted = path.join(source, 'blobs', 'left-by-an-older-version');
    fs.writeFileSync(planted, 'x', { mode: 0o644 });
    fs.chmodSync(planted, 0o644);
    fs.chmodSync(path.join(source, 'blobs'), 0o755);
    const output = await start(source);
    const warnings = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; paths?: string[]; count?: number; fix?: string })
      .filter((line) => line.msg.startsWith('the data directory'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, count: 2, fix: `chmod -R go= ${source}` });
    expect(warnings[0].paths).toEqual(expect.arrayContaining([path.join(source, 'blobs'), planted]));
  }, 120_000);
});
