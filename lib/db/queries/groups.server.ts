/**
 * Groups and their members: the rows only. Admins make and change groups on /admin; with OpenID
 * Connect, the provider's groups claim keeps an account's memberships in step at each sign-in
 * (`source = 'oidc'`), never touching a membership an admin made (`source = 'admin'`).
 */
import 'server-only';
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../client.server';
import { authUsers, groupMembers, groups } from '../schema.server';

export type GroupMemberView = { userId: string; email: string | null; source: 'admin' | 'oidc' };
export type GroupView = { id: string; name: string; members: GroupMemberView[] };

/** Every group with its members (by email), by name: the admin page's list. */
export async function listGroupsWithMembers(db: Db): Promise<GroupView[]> {
  const rows = await db
    .select({ id: groups.id, name: groups.name, userId: groupMembers.userId, email: authUsers.email, source: groupMembers.source })
    .from(groups)
    .leftJoin(groupMembers, eq(groupMembers.groupId, groups.id))
    .leftJoin(authUsers, eq(authUsers.id, groupMembers.userId))
    .orderBy(asc(groups.name), asc(groups.id), asc(authUsers.email));
  const byId = new Map<string, GroupView>();
  for (const row of rows) {
    const group = byId.get(row.id) ?? { id: row.id, name: row.name, members: [] };
    byId.set(row.id, group);
    if (row.userId && row.source) group.members.push({ userId: row.userId, email: row.email, source: row.source });
  }
  return [...byId.values()];
}

/** The groups a share or a project's member may name: ids and names only, by name. */
export async function listGroupChoices(db: Db): Promise<Array<{ id: string; name: string }>> {
  return db.select({ id: groups.id, name: groups.name }).from(groups).orderBy(asc(groups.name), asc(groups.id));
}

export async function renameGroup(db: Db, id: string, name: string): Promise<boolean> {
  return (await db.update(groups).set({ name }).where(eq(groups.id, id)).returning({ id: groups.id })).length > 0;
}

/** Deletes the group; every grant to it (project members, readers) goes with it. */
export async function deleteGroup(db: Db, id: string): Promise<boolean> {
  return (await db.delete(groups).where(eq(groups.id, id)).returning({ id: groups.id })).length > 0;
}

/** Puts accounts in a group as an admin's members (one the claim put there becomes the admin's: the claim no longer removes it). */
export async function addGroupMembers(db: Db, groupId: string, userIds: string[]): Promise<void> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return;
  await db
    .insert(groupMembers)
    .values(unique.map((userId) => ({ groupId, userId, source: 'admin' as const })))
    .onConflictDoUpdate({ target: [groupMembers.groupId, groupMembers.userId], set: { source: 'admin' } });
}

/** Takes an account out of a group; false when it was not in it. */
export async function removeGroupMember(db: Db, groupId: string, userId: string): Promise<boolean> {
  return (await db.delete(groupMembers).where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId))).returning({ userId: groupMembers.userId })).length > 0;
}

/**
 * The account's claimed groups, as the provider named them at this sign-in: each name's group (the
 * oldest of that name, made when there is none) gets the account as a claimed member; a claimed
 * membership of a group no longer named goes. Memberships an admin made stay as they are. One
 * transaction, serialized with other sign-ins' (two first sign-ins naming a new group make one).
 */
export async function syncClaimedGroups(db: Db, userId: string, names: string[]): Promise<{ added: number; removed: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('runpad:claimed-groups'))`);
    const wanted = [...new Set(names)];
    const found = wanted.length === 0 ? [] : await tx.select({ id: groups.id, name: groups.name }).from(groups).where(inArray(groups.name, wanted)).orderBy(asc(groups.createdAt), asc(groups.id));
    const idByName = new Map<string, string>();
    for (const row of found) if (!idByName.has(row.name)) idByName.set(row.name, row.id);
    for (const name of wanted) {
      if (idByName.has(name)) continue;
      const [made] = await tx.insert(groups).values({ id: crypto.randomUUID(), name, createdBy: null }).returning({ id: groups.id });
      idByName.set(name, made!.id);
    }
    const ids = [...idByName.values()];
    const added = ids.length === 0 ? [] : await tx.insert(groupMembers).values(ids.map((groupId) => ({ groupId, userId, source: 'oidc' as const }))).onConflictDoNothing().returning({ groupId: groupMembers.groupId });
    const stale = and(eq(groupMembers.userId, userId), eq(groupMembers.source, 'oidc'), ids.length === 0 ? undefined : notInArray(groupMembers.groupId, ids));
    const removed = await tx.delete(groupMembers).where(stale).returning({ groupId: groupMembers.groupId });
    return { added: added.length, removed: removed.length };
  });
}
