/**
 * An embedded database for a describe block, with two users: the owner of what a test stores and
 * a stranger who must be refused it. Opened before the block's tests, closed after.
 */
import { afterAll, beforeAll } from 'vitest';
import { createDb, type DbHandle } from '@/lib/db/client.server';
import { ensureUser } from '@/lib/db/queries/users.server';

export function ownerAndStranger(): { readonly db: DbHandle['db']; user: string; stranger: string } {
  let handle: DbHandle | null = null;
  const user = crypto.randomUUID();
  const stranger = crypto.randomUUID();
  beforeAll(async () => {
    handle = await createDb({ dataDir: null });
    await ensureUser(handle.db, user);
    await ensureUser(handle.db, stranger);
  });
  afterAll(() => handle?.close());
  return {
    get db() {
      if (!handle) throw new Error('the test database is opened before the tests run');
      return handle.db;
    },
    user,
    stranger,
  };
}
