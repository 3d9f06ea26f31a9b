import 'server-only';
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.server';
import { authUsers, users } from '../schema.server';

export type Person = typeof users.$inferSelect;

/** The guest's row, created on first use (the cookie is issued before any row exists). */
export async function ensureUser(db: Db, id: string): Promise<void> {
  await db.insert(users).values({ id }).onConflictDoNothing();
}

export async function getPerson(db: Db, id: string): Promise<Person | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

/** Adds a guest's row; false when it already existed (so it was not a new guest). */
export async function insertGuest(db: Db, id: string): Promise<boolean> {
  const inserted = await db.insert(users).values({ id }).onConflictDoNothing().returning({ id: users.id });
  return inserted.length > 0;
}

export async function isBlocked(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ blockedAt: users.blockedAt }).from(users).where(eq(users.id, id));
  return Boolean(row?.blockedAt);
}

/** One admitted model request, for the usage the admin page shows. */
export async function countModelRequest(db: Db, id: string): Promise<void> {
  await db.update(users).set({ modelRequests: sql`${users.modelRequests} + 1` }).where(eq(users.id, id));
}

export type PersonLimits = { modelRequestsPerMinute: number | null; modelRequestsPerDay: number | null; storageBytes: number | null; tokensPerDay?: number | null };

/** The admin page's writes: block or unblock, and per-person limits (null: the instance default). */
export async function updatePerson(db: Db, id: string, change: { blocked?: boolean; limits?: PersonLimits }): Promise<boolean> {
  const set: Partial<typeof users.$inferInsert> = { ...change.limits };
  if (change.blocked !== undefined) set.blockedAt = change.blocked ? new Date() : null;
  if (Object.keys(set).length === 0) return true;
  const updated = await db.update(users).set(set).where(eq(users.id, id)).returning({ id: users.id });
  return updated.length > 0;
}

export type PersonRow = Person & { email: string | null; name: string | null };

/** People with accounts first, then guests, most recent first; at most `limit`. */
export async function listPeople(db: Db, limit = 500): Promise<PersonRow[]> {
  const rows = await db
    .select({ person: users, email: authUsers.email, name: authUsers.name })
    .from(users)
    .leftJoin(authUsers, eq(authUsers.id, users.id))
    .orderBy(sql`${authUsers.email} is null`, desc(users.createdAt))
    .limit(limit);
  return rows.map((row) => ({ ...row.person, email: row.email, name: row.name }));
}
