/**
 * `npm run backup`, `npm run restore` and `npm run move-to-postgres`, on embedded data directories
 * in a temporary directory and on fresh databases of the machine's Postgres server. Each command
 * runs once as an operator types it (`npm run …`, in a process of its own, configured by the
 * environment), which tests its wiring: as it refuses (a data directory holding no database; a
 * damaged archive; a database that holds data), read from the environment, before it opens an
 * embedded database. Every other round trip calls the same commands in this
 * process (lib/ops/commands.server.ts), with the settings the environment would give: each spawned
 * command that opens PGlite compiles it and applies every migration in a new process (seconds of
 * CPU each), and twelve of them were the unit lane's slowest file. A backup refused because another process has the database open runs
 * here too, against a lock naming another live process, as a running server's does. After each round trip a
 * conversation, its messages, its uploaded file (the same bytes) and its share link are read back
 * through the app's own queries.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { extract, create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsBlobStore } from '@/lib/blobs/fs-blob-store.server';
import { createS3BlobStore } from '@/lib/blobs/s3-blob-store.server';
import { startS3TestServer, type S3TestServer } from '@/lib/testing/s3-server';
import type { BlobStore } from '@/lib/blobs/blob-store.server';
import { readWhole } from '@/lib/blobs/read-whole.server';
import { ConfigurationError } from '@/lib/config-problems.server';
import { createDb, type Db, type DbOptions } from '@/lib/db/client.server';
import { putBlob } from '@/lib/db/queries/blobs.server';
import { createConversation, getConversation } from '@/lib/db/queries/conversations.server';
import { addFile, listFiles } from '@/lib/files/file-queries.server';
import { listMessages, saveMessages } from '@/lib/db/queries/messages.server';
import { createOrUpdateShare, getShare, listShareFiles } from '@/lib/db/queries/shares.server';
import { ensureUser } from '@/lib/db/queries/users.server';
import { backup } from './backup.server';
import { failureLine, runOpsCommand, type OpsSettings } from './commands.server';
import { manifestSchema } from './manifest.server';
import { migrationsUpTo } from './migrations.server';
import { skipOutsideCi } from '@/lib/testing/required';

const run = promisify(execFile);
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-ops-'));
const quota = { conversationBytes: 1_000_000, guestBytes: 2_000_000 };
const FILE_BYTES = new TextEncoder().encode('city,population\nLyon,522000\n');
const SECRET = 'a-generated-secret-of-the-source-instance-0123456789';

type Settings = { dataDir: string; databaseUrl?: string; s3?: S3TestServer };
type Outcome = { code: number; stdout: string; stderr: string };

/** `npm run <script> -- args` as an operator types it, with only these Runpad settings; resolves with its exit code and output. */
async function npmRun(script: string, args: string[], settings: Settings): Promise<Outcome> {
  // NODE_NO_WARNINGS: the AWS SDK's notice about Node 20 is not the command's output; npm's own
  // notice of a newer npm neither.
  const env: NodeJS.ProcessEnv = { ...process.env, RUNPAD_DATA_DIR: settings.dataDir, NODE_NO_WARNINGS: '1', npm_config_update_notifier: 'false' };
  for (const name of Object.keys(env)) if (name === 'DATABASE_URL' || name === 'AUTH_SECRET' || name.startsWith('S3_')) delete env[name];
  if (settings.databaseUrl) env.DATABASE_URL = settings.databaseUrl;
  if (settings.s3) {
    const { bucket, endpoint, accessKeyId, secretAccessKey } = settings.s3;
    Object.assign(env, { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey, S3_PREFIX: 'restored/' });
  }
  try {
    const { stdout, stderr } = await run('npm', ['run', script, '--', ...args], { cwd: process.cwd(), env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * The same command in this process, with the settings lib/config.server.ts gives for the environment
 * npmRun sets (RUNPAD_DATA_DIR; DATABASE_URL; the S3_ variables, path-style with an endpoint);
 * what it printed and the exit code cli.ts would give.
 */
async function inProcess(argv: string[], settings: Settings): Promise<Outcome> {
  const dataDir = path.resolve(settings.dataDir);
  const spoolDir = path.join(dataDir, 'spool');
  const s3 = settings.s3;
  const opsSettings: OpsSettings = {
    dataDir,
    databaseUrl: settings.databaseUrl ?? null,
    authSecret: null,
    blobStore: s3
      ? { kind: 's3', bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true, prefix: 'restored/', spoolDir }
      : { kind: 'filesystem', rootDir: path.join(dataDir, 'blobs'), spoolDir },
  };
  const stdout: string[] = [];
  const stderr: string[] = [];
  try {
    await runOpsCommand(argv, () => opsSettings, { log: (line) => stdout.push(`${line}\n`), warn: (line) => stderr.push(`${line}\n`) });
    return { code: 0, stdout: stdout.join(''), stderr: stderr.join('') };
  } catch (error) {
    stderr.push(`${failureLine(error)}\n`);
    return { code: 1, stdout: stdout.join(''), stderr: stderr.join('') };
  }
}

const databases: string[] = [];
let serverProblem: string | null = null;
/** A new, empty database on the Postgres server (dropped after the tests). */
async function freshDatabase(): Promise<string> {
  const name = `runpad_ops_${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  databases.push(name);
  return Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).href;
}

type Made = { user: string; conversation: string; share: string; sha256: string };

/** What every round trip must bring back (the file's bytes from this blob store). */
async function expectWork(database: DbOptions, blobs: string | BlobStore, made: Made) {
  const blobStore = typeof blobs === 'string' ? createFsBlobStore(blobs) : blobs;
  const { db, close } = await createDb(database);
  try {
    expect((await getConversation(db, made.user, made.conversation))?.title).toBe('Populations');
    expect((await listMessages(db, made.conversation)).map((m) => [m.role, m.parts])).toEqual([
      ['user', [{ type: 'text', text: 'Plot the cities' }]],
      ['assistant', [{ type: 'text', text: 'Here they are' }]],
    ]);
    const [file] = await listFiles(db, made.conversation);
    expect(file).toMatchObject({ name: 'cities.csv', sha256: made.sha256, mediaType: 'text/csv', size: FILE_BYTES.byteLength });
    expect(await readWhole(blobStore, made.sha256)).toEqual(Buffer.from(FILE_BYTES));
    const share = await getShare(db, made.share);
    expect(share?.conversationId).toBe(made.conversation);
    expect(share?.messages.map((m) => m.id)).toEqual(['u1', 'a1']);
    expect((await listShareFiles(db, made.share)).map((f) => f.name)).toEqual(['cities.csv']);
  } finally {
    await close();
  }
}

/** A person's conversation with two messages, an uploaded file and a share link. */
async function makeWork(db: Db, blobDir: string): Promise<Made> {
  const user = crypto.randomUUID();
  await ensureUser(db, user);
  const { id: conversation } = await createConversation(db, user, { title: 'Populations' });
  await saveMessages(db, user, conversation, [
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Plot the cities' }] },
    { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Here they are' }] },
  ]);
  const sha256 = await putBlob(db, createFsBlobStore(blobDir), FILE_BYTES);
  await addFile(db, user, conversation, { name: 'cities.csv', sha256, mediaType: 'text/csv', size: FILE_BYTES.byteLength }, quota);
  const share = await createOrUpdateShare(db, user, conversation);
  return { user, conversation, share: share!, sha256 };
}

const source = path.join(root, 'source');
const archive = path.join(root, 'source.tar.gz');
let made: Made;

beforeAll(async () => {
  const { db, close } = await createDb({ dataDir: path.join(source, 'pglite') });
  try {
    made = await makeWork(db, path.join(source, 'blobs'));
  } finally {
    await close();
  }
  fs.writeFileSync(path.join(source, 'auth-secret'), SECRET, { mode: 0o600 });
  const admin = postgres(ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => undefined });
  serverProblem = await admin`select 1`.then(
    () => null,
    (error: Error) => `no Postgres server (${error.message})`,
  );
  await admin.end();
  serverProblem = skipOutsideCi(serverProblem);
}, 120_000);

afterAll(async () => {
  if (databases.length > 0) {
    const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
    for (const name of databases) await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  fs.rmSync(root, { recursive: true, force: true });
});

// Safety nets only: a command opens a database (seconds of CPU, more under load; more again in a process of its own).
describe('backup and restore of an embedded instance', { timeout: 300_000 }, () => {
  it('writes one archive whose manifest names the versions and every file with its checksum', async () => {
    const result = await inProcess(['backup', archive], { dataDir: source });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Backed up the embedded database in .*: \d+ rows in \d+ tables/m);
    const unpacked = path.join(root, 'unpacked');
    fs.mkdirSync(unpacked);
    await extract({ file: archive, cwd: unpacked });
    const manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')));
    expect(manifest.appVersion).toBe(JSON.parse(fs.readFileSync('package.json', 'utf8')).version);
    expect(manifest.database).toMatchObject({ kind: 'embedded', migration: expect.stringMatching(/^\d{4}_/) });
    expect(manifest.database.server).toMatch(/PGlite/);
    expect(manifest.database.tables).toEqual(expect.arrayContaining([{ name: 'conversations', rows: 1 }, { name: 'messages', rows: 2 }, { name: 'shares', rows: 1 }]));
    expect(manifest.authSecret).toBe('archived');
    expect(manifest.files.map((f) => f.path)).toEqual(expect.arrayContaining([`blobs/${made.sha256}`, 'auth-secret', 'database/messages.ndjson']));
    expect(fs.readFileSync(path.join(unpacked, 'blobs', made.sha256))).toEqual(Buffer.from(FILE_BYTES));
  });

  it('restores into an empty data directory: the work, the file bytes, the share and the auth secret', async () => {
    const target = path.join(root, 'restored');
    const result = await inProcess(['restore', archive], { dataDir: target });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Restored \d+ rows and 1 blobs/m);
    await expectWork({ dataDir: path.join(target, 'pglite') }, path.join(target, 'blobs'), made);
    expect(fs.readFileSync(path.join(target, 'auth-secret'), 'utf8')).toBe(SECRET);

    // Again into the same, now holding data: refused with words, nothing changed.
    const again = await inProcess(['restore', archive], { dataDir: target });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/is not empty \(.*users: 1 rows.*\)\. Restore into a new, empty database/);
  });

  it('refuses an archive whose file does not match its checksum, before writing anything', async () => {
    const unpacked = path.join(root, 'tampered');
    fs.mkdirSync(unpacked);
    await extract({ file: archive, cwd: unpacked });
    fs.appendFileSync(path.join(unpacked, 'blobs', made.sha256), 'x');
    const tampered = path.join(root, 'tampered.tar.gz');
    await create({ gzip: true, file: tampered, cwd: unpacked }, fs.readdirSync(unpacked));
    const target = path.join(root, 'from-tampered');
    const result = await npmRun('restore', [tampered], { dataDir: target });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`The archive is damaged: blobs/${made.sha256} does not match its checksum`);
    expect(fs.existsSync(path.join(target, 'pglite'))).toBe(false);
  });

  it('as an operator types it, names a data directory that holds no database, and writes nothing', async () => {
    const empty = path.join(root, 'no-database');
    const result = await npmRun('backup', [path.join(root, 'of-nothing.tar.gz')], { dataDir: empty });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`There is no embedded database in ${path.join(empty, 'pglite')}: nothing to back up.`);
    expect(fs.existsSync(path.join(root, 'of-nothing.tar.gz'))).toBe(false);
  });

  it('refuses to back up an embedded database another process has open, naming it', async () => {
    // The other process: a live one on this host whose lock (lib/db/embedded-lock.server.ts) holds
    // the database, as a running server's does; the command runs in this process.
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const lock = `${path.join(source, 'pglite')}.lock`;
    try {
      fs.writeFileSync(lock, JSON.stringify({ pid: other.pid, host: os.hostname(), holder: 'the Runpad server' }));
      const result = await inProcess(['backup', path.join(root, 'while-open.tar.gz')], { dataDir: source });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`is in use by the Runpad server (process ${other.pid}). Stop it first`);
      expect(fs.existsSync(path.join(root, 'while-open.tar.gz'))).toBe(false);
      expect(fs.existsSync(lock)).toBe(true);
    } finally {
      other.kill();
      await once(other, 'exit');
      fs.rmSync(lock, { force: true });
    }
  });

  it('restores an archive of an older schema and brings it to this version', async () => {
    const journal = JSON.parse(fs.readFileSync('lib/db/migrations/meta/_journal.json', 'utf8')) as { entries: { tag: string }[] };
    const older = journal.entries.at(-2)!.tag;
    const folder = migrationsUpTo(older)!;
    const { db, close } = await createDb({ dataDir: null }, { migrationsFolder: folder });
    const user = crypto.randomUUID();
    try {
      // Written in SQL that every schema since the first takes: the app's own queries name the
      // newest columns, which an older schema lacks.
      await db.execute(sql`insert into users (id) values (${user})`);
      await db.execute(sql`insert into conversations (id, owner_id, title) values (${crypto.randomUUID()}, ${user}, 'Before the upgrade')`);
      const store = createFsBlobStore(path.join(root, 'older-blobs'));
      const manifest = await backup({ db, databaseKind: 'embedded', store, authSecret: { file: path.join(root, 'none') }, appVersion: '0.9.0' }, path.join(root, 'older.tar.gz'));
      expect(manifest.database.migration).toBe(older);
    } finally {
      await close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
    const target = path.join(root, 'upgraded');
    const result = await inProcess(['restore', path.join(root, 'older.tar.gz')], { dataDir: target });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`the schema is now ${journal.entries.at(-1)!.tag}`);
    const opened = await createDb({ dataDir: path.join(target, 'pglite') });
    try {
      expect((await opened.db.query.conversations.findFirst())?.title).toBe('Before the upgrade');
    } finally {
      await opened.close();
    }
  });
});

describe('Postgres', { timeout: 300_000 }, () => {
  it('restores an embedded instance’s archive into a new Postgres database, and backs that up again', async (context) => {
    if (serverProblem) context.skip(serverProblem);
    const url = await freshDatabase();
    const target = path.join(root, 'on-postgres');
    const restored = await inProcess(['restore', archive], { dataDir: target, databaseUrl: url });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    await expectWork({ url }, path.join(target, 'blobs'), made);

    // A backup of the Postgres database (running instance or not: one snapshot).
    const second = path.join(root, 'from-postgres.tar.gz');
    const backedUp = await inProcess(['backup', second], { dataDir: target, databaseUrl: url });
    expect(backedUp.code).toBe(0);
    const unpacked = path.join(root, 'from-postgres');
    fs.mkdirSync(unpacked);
    await extract({ file: second, cwd: unpacked });
    const manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')));
    expect(manifest.database.kind).toBe('postgres');
    expect(manifest.database.server).toMatch(/^PostgreSQL \d+/);
    expect(manifest.database.tables).toEqual(expect.arrayContaining([{ name: 'conversations', rows: 1 }, { name: 'messages', rows: 2 }, { name: 'share_files', rows: 1 }]));
    expect(fs.readFileSync(path.join(unpacked, 'database', 'messages.ndjson'), 'utf8')).toContain('Plot the cities');
  });

  it('move-to-postgres copies the embedded database; the blobs stay where they are', async (context) => {
    if (serverProblem) context.skip(serverProblem);
    const url = await freshDatabase();
    const moved = await inProcess(['move-to-postgres'], { dataDir: source, databaseUrl: url });
    expect(moved.stderr).toBe('');
    expect(moved.code).toBe(0);
    expect(moved.stdout).toContain(`Blobs stay in ${path.join(source, 'blobs')}`);
    await expectWork({ url }, path.join(source, 'blobs'), made);

    // Into a database that now holds data: refused.
    const again = await npmRun('move-to-postgres', [], { dataDir: source, databaseUrl: url });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('The database at DATABASE_URL is not empty');
  });
});

describe('an S3 blob store', { timeout: 300_000 }, () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3TestServer();
  });
  afterAll(() => s3?.stop());

  it('a filesystem instance’s archive restores into S3, and an S3 instance backs up its blobs', async () => {
    const target = path.join(root, 'on-s3');
    const restored = await inProcess(['restore', archive], { dataDir: target, s3 });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const store = createS3BlobStore({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true, prefix: 'restored/', spoolDir: path.join(root, 'spool') });
    await expectWork({ dataDir: path.join(target, 'pglite') }, store, made);

    const fromS3 = path.join(root, 'from-s3.tar.gz');
    expect((await inProcess(['backup', fromS3], { dataDir: target, s3 })).code).toBe(0);
    const unpacked = path.join(root, 'from-s3');
    fs.mkdirSync(unpacked);
    await extract({ file: fromS3, cwd: unpacked });
    expect(manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'))).blobs).toEqual({ store: 's3', count: 1, missing: [] });
    expect(fs.readFileSync(path.join(unpacked, 'blobs', made.sha256))).toEqual(Buffer.from(FILE_BYTES));
  });
});

describe('what a command prints when it will not run', () => {
  it('names the usage before reading the configuration, and a configuration problem in its words, not a stack', async () => {
    const unread = () => {
      throw new Error('the settings were read');
    };
    await expect(runOpsCommand(['backup'], unread, { log: () => undefined, warn: () => undefined })).rejects.toThrow(/^Usage: npm run backup -- FILE/);
    const problem = { variable: 'S3_ENDPOINT', problem: 'not a URL', fix: 'set the S3 server’s URL' };
    const line = failureLine(new ConfigurationError([problem]));
    expect(line).toBe('runpad: Invalid configuration: S3_ENDPOINT: not a URL. Fix: set the S3 server’s URL.');
  });
});
