/**
 * The data layer's tests run twice: on embedded PGlite and on a real Postgres server
 * (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres). For the server, each
 * test file gets a fresh, uniquely named database, dropped afterwards.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, it } from 'vitest';
import { createDb, type DbHandle } from '../db/client.server';
import { ensureUser } from '../db/queries/users.server';
import { openMigratedInMemory } from './migrated-data-dir';
import { skipOutsideCi } from './required';

export type TestBackend = { name: string; available: () => Promise<string | null>; open: () => Promise<DbHandle & { url?: string }>; cleanup: () => Promise<void> };

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function pgliteBackend(): TestBackend {
  return { name: 'PGlite', available: async () => null, open: openMigratedInMemory, cleanup: async () => undefined };
}

export function serverBackend(): TestBackend {
  const database = `runpad_t_${Math.random().toString(36).slice(2, 10)}`;
  const url = new URL(ADMIN_URL);
  const testUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${database}` }).href;
  let created = false;
  return {
    name: 'Postgres server',
    // Under CI=true a missing server is a failure, not a skip (lib/testing/required.ts).
    available: async () => {
      const admin = postgres(ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => undefined });
      try {
        await admin.unsafe(`create database ${database}`);
        created = true;
        return null;
      } catch (error) {
        return skipOutsideCi(`no Postgres server at ${url.host} (${(error as Error).message})`);
      } finally {
        await admin.end();
      }
    },
    open: async () => ({ ...(await createDb({ url: testUrl })), url: testUrl }),
    cleanup: async () => {
      if (!created) return;
      const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
      await admin.unsafe(`drop database if exists ${database} with (force)`);
      await admin.end();
    },
  };
}

/**
 * Opens `backend` for the enclosing `describe` (before its tests; closed and cleaned up after),
 * makes the users `userIds`, and hands the opened database to `onOpen`. Returns `live`: Vitest's `it`,
 * skipped with the reason when the backend is not there (no Postgres server), outside CI only.
 */
export function openForTests(backend: TestBackend, userIds: string[], onOpen: (opened: DbHandle & { url?: string }) => void): (name: string, body: () => Promise<void>) => void {
  let handle: (DbHandle & { url?: string }) | null = null;
  let skipReason: string | null = null;
  beforeAll(async () => {
    skipReason = await backend.available();
    if (skipReason) return void console.warn(`[${backend.name}] skipping: ${skipReason}`);
    handle = await backend.open();
    for (const id of userIds) await ensureUser(handle.db, id);
    onOpen(handle);
  });
  afterAll(async () => {
    await handle?.close();
    await backend.cleanup();
  });
  return (name, body) =>
    it(name, async (context) => {
      if (skipReason) context.skip(skipReason);
      await body();
    });
}
