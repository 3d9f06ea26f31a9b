import type { Db } from '../client';
import { users } from '../schema';

/** The guest's row, created on first use (the cookie is issued before any row exists). */
export async function ensureUser(db: Db, id: string): Promise<void> {
  await db.insert(users).values({ id }).onConflictDoNothing();
}
