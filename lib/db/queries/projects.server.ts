/**
 * Projects, their members, groups and conversations' readers: the rows only. Who may do what with
 * them is decided in one place, lib/access/authorize.server.ts, which reads the grants through
 * `grantsOf` here; the routes call these after it said yes.
 */
import 'server-only';
import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.server';
import { authUsers, conversationFiles, conversationReaders, conversations, groupMembers, groups, messages, projectFiles, projectMembers, projects, shareAudit } from '../schema.server';

export type ProjectRow = typeof projects.$inferSelect;
export type MemberRole = 'use' | 'edit';
/** An account or a group, exactly one. */
export type Grantee = { userId: string; groupId?: undefined } | { groupId: string; userId?: undefined };

export async function createProject(db: Db, ownerId: string, values: { name: string; instructions?: string; modelId?: string | null; modelSees?: string | null }): Promise<ProjectRow> {
  const [row] = await db
    .insert(projects)
    .values({ id: crypto.randomUUID(), ownerId, name: values.name, instructions: values.instructions ?? '', modelId: values.modelId ?? null, modelSees: values.modelSees ?? null })
    .returning();
  return row!;
}

export async function getProject(db: Db, id: string): Promise<ProjectRow | null> {
  const [row] = await db.select().from(projects).where(eq(projects.id, id)).limit(1);
  return row ?? null;
}

export async function updateProject(db: Db, id: string, values: Partial<Pick<ProjectRow, 'name' | 'instructions' | 'modelId' | 'modelSees'>>): Promise<ProjectRow | null> {
  const [row] = await db
    .update(projects)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(projects.id, id))
    .returning();
  return row ?? null;
}

/** Deletes the project and its members; its conversations stay their authors', outside any project. */
export async function deleteProject(db: Db, id: string): Promise<boolean> {
  return (await db.delete(projects).where(eq(projects.id, id)).returning({ id: projects.id })).length > 0;
}

/** The groups `userId` is in. */
const groupsOf = (userId: string) => sql`(select ${groupMembers.groupId} from ${groupMembers} where ${groupMembers.userId} = ${userId})`;
const grantedTo = (table: typeof projectMembers | typeof conversationReaders, userId: string) => or(eq(table.userId, userId), sql`${table.groupId} in ${groupsOf(userId)}`);

/**
 * What `userId` holds on a project and on a conversation: the project's owner and member roles
 * (directly and through groups), the conversation's owner, whether they read it (directly or
 * through a group), and the project the conversation was started in. Null fields: none.
 */
export type Grants = { projectOwner: string | null; projectRoles: MemberRole[]; conversationOwner: string | null; conversationProjectId: string | null; reader: boolean };

export async function projectGrants(db: Db, userId: string, projectId: string): Promise<Pick<Grants, 'projectOwner' | 'projectRoles'>> {
  const [project] = await db.select({ ownerId: projects.ownerId }).from(projects).where(eq(projects.id, projectId)).limit(1);
  if (!project) return { projectOwner: null, projectRoles: [] };
  const roles = await db
    .select({ role: projectMembers.role })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), grantedTo(projectMembers, userId)));
  return { projectOwner: project.ownerId, projectRoles: roles.map((row) => row.role) };
}

export async function conversationGrants(db: Db, userId: string, conversationId: string): Promise<Pick<Grants, 'conversationOwner' | 'conversationProjectId' | 'reader'>> {
  const [conversation] = await db.select({ ownerId: conversations.ownerId, projectId: conversations.projectId }).from(conversations).where(eq(conversations.id, conversationId)).limit(1);
  if (!conversation) return { conversationOwner: null, conversationProjectId: null, reader: false };
  const [reads] = await db
    .select({ id: conversationReaders.id })
    .from(conversationReaders)
    .where(and(eq(conversationReaders.conversationId, conversationId), grantedTo(conversationReaders, userId)))
    .limit(1);
  return { conversationOwner: conversation.ownerId, conversationProjectId: conversation.projectId, reader: reads !== undefined };
}

/** The projects `userId` owns or is a member of (directly or through a group), newest first. */
export async function listProjectsOf(db: Db, userId: string): Promise<Array<Pick<ProjectRow, 'id' | 'name' | 'updatedAt'>>> {
  const memberOf = db.select({ id: projectMembers.projectId }).from(projectMembers).where(grantedTo(projectMembers, userId));
  return db
    .select({ id: projects.id, name: projects.name, updatedAt: projects.updatedAt })
    .from(projects)
    .where(or(eq(projects.ownerId, userId), inArray(projects.id, memberOf)))
    .orderBy(desc(projects.updatedAt), desc(projects.id));
}

/** The account with this email (compared without case), or null. */
export async function accountByEmail(db: Db, email: string): Promise<{ id: string; email: string } | null> {
  const [row] = await db
    .select({ id: authUsers.id, email: authUsers.email })
    .from(authUsers)
    .where(sql`lower(${authUsers.email}) = lower(${email})`)
    .limit(1);
  return row ?? null;
}

export async function getGroup(db: Db, id: string): Promise<{ id: string; name: string } | null> {
  const [row] = await db.select({ id: groups.id, name: groups.name }).from(groups).where(eq(groups.id, id)).limit(1);
  return row ?? null;
}

/** A group an admin made, with these accounts in it. */
export async function createGroup(db: Db, values: { name: string; createdBy: string | null; userIds: string[] }): Promise<{ id: string; name: string }> {
  return db.transaction(async (tx) => {
    const [group] = await tx.insert(groups).values({ id: crypto.randomUUID(), name: values.name, createdBy: values.createdBy }).returning({ id: groups.id, name: groups.name });
    const userIds = [...new Set(values.userIds)];
    if (userIds.length > 0) await tx.insert(groupMembers).values(userIds.map((userId) => ({ groupId: group!.id, userId })));
    return group!;
  });
}

export type Member = { id: string; role: MemberRole; userId: string | null; email: string | null; groupId: string | null; groupName: string | null };

/** Adds (or changes the role of) a project's member; its row's id. */
export async function putProjectMember(db: Db, projectId: string, grantee: Grantee, role: MemberRole, addedBy: string): Promise<string> {
  const target = grantee.userId ? [projectMembers.projectId, projectMembers.userId] : [projectMembers.projectId, projectMembers.groupId];
  const [row] = await db
    .insert(projectMembers)
    .values({ id: crypto.randomUUID(), projectId, userId: grantee.userId ?? null, groupId: grantee.groupId ?? null, role, addedBy })
    .onConflictDoUpdate({ target, set: { role } })
    .returning({ id: projectMembers.id });
  return row!.id;
}

/** Removes a project's member; the removed row (for the audit), or null when it is not this project's. */
export async function removeProjectMember(db: Db, projectId: string, memberId: string): Promise<{ userId: string | null; groupId: string | null; role: MemberRole } | null> {
  const [row] = await db
    .delete(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.id, memberId)))
    .returning({ userId: projectMembers.userId, groupId: projectMembers.groupId, role: projectMembers.role });
  return row ?? null;
}

export async function listProjectMembers(db: Db, projectId: string): Promise<Member[]> {
  return db
    .select({ id: projectMembers.id, role: projectMembers.role, userId: projectMembers.userId, email: authUsers.email, groupId: projectMembers.groupId, groupName: groups.name })
    .from(projectMembers)
    .leftJoin(authUsers, eq(authUsers.id, projectMembers.userId))
    .leftJoin(groups, eq(groups.id, projectMembers.groupId))
    .where(eq(projectMembers.projectId, projectId))
    .orderBy(asc(projectMembers.createdAt), asc(projectMembers.id));
}

export type Reader = Omit<Member, 'role'>;

/** Adds a conversation's reader (nothing changes when they already read it); its row's id. */
export async function putConversationReader(db: Db, conversationId: string, grantee: Grantee, addedBy: string): Promise<string> {
  const match = and(eq(conversationReaders.conversationId, conversationId), grantee.userId ? eq(conversationReaders.userId, grantee.userId) : eq(conversationReaders.groupId, grantee.groupId!));
  await db
    .insert(conversationReaders)
    .values({ id: crypto.randomUUID(), conversationId, userId: grantee.userId ?? null, groupId: grantee.groupId ?? null, addedBy })
    .onConflictDoNothing();
  const [row] = await db.select({ id: conversationReaders.id }).from(conversationReaders).where(match).limit(1);
  return row!.id;
}

export async function removeConversationReader(db: Db, conversationId: string, readerId: string): Promise<{ userId: string | null; groupId: string | null } | null> {
  const [row] = await db
    .delete(conversationReaders)
    .where(and(eq(conversationReaders.conversationId, conversationId), eq(conversationReaders.id, readerId)))
    .returning({ userId: conversationReaders.userId, groupId: conversationReaders.groupId });
  return row ?? null;
}

export async function listConversationReaders(db: Db, conversationId: string): Promise<Reader[]> {
  return db
    .select({ id: conversationReaders.id, userId: conversationReaders.userId, email: authUsers.email, groupId: conversationReaders.groupId, groupName: groups.name })
    .from(conversationReaders)
    .leftJoin(authUsers, eq(authUsers.id, conversationReaders.userId))
    .leftJoin(groups, eq(groups.id, conversationReaders.groupId))
    .where(eq(conversationReaders.conversationId, conversationId))
    .orderBy(asc(conversationReaders.createdAt), asc(conversationReaders.id));
}

export type ShareAuditKind = 'member_added' | 'member_invited' | 'member_removed' | 'reader_added' | 'reader_removed';

/** Records who shared what with whom (the emails and the group's name as they are now; `subjectEmail`: an email no account has yet). */
export async function recordShare(
  db: Db,
  input: { actorId: string; kind: ShareAuditKind; projectId?: string; conversationId?: string; subjectUserId: string | null; subjectGroupId: string | null; subjectEmail?: string; role?: MemberRole },
): Promise<void> {
  const emailOf = async (id: string | null) => (id ? ((await db.select({ email: authUsers.email }).from(authUsers).where(eq(authUsers.id, id)).limit(1))[0]?.email ?? null) : null);
  await db.insert(shareAudit).values({
    id: crypto.randomUUID(),
    actorId: input.actorId,
    actorEmail: await emailOf(input.actorId),
    kind: input.kind,
    projectId: input.projectId ?? null,
    conversationId: input.conversationId ?? null,
    subjectUserId: input.subjectUserId,
    subjectEmail: input.subjectEmail ?? (await emailOf(input.subjectUserId)),
    subjectGroupId: input.subjectGroupId,
    subjectGroupName: input.subjectGroupId ? ((await getGroup(db, input.subjectGroupId))?.name ?? null) : null,
    role: input.role ?? null,
  });
}

export type ShareRecord = typeof shareAudit.$inferSelect & { projectName: string | null; conversationTitle: string | null };

/** The newest `limit` shares, newest first, with the project's name and the conversation's title as they are now (null when gone or untitled). */
export async function listShareAudit(db: Db, limit = 200): Promise<ShareRecord[]> {
  const rows = await db
    .select({ record: shareAudit, projectName: projects.name, conversationTitle: conversations.title })
    .from(shareAudit)
    .leftJoin(projects, eq(projects.id, shareAudit.projectId))
    .leftJoin(conversations, eq(conversations.id, shareAudit.conversationId))
    .orderBy(desc(shareAudit.at))
    .limit(limit);
  return rows.map(({ record, projectName, conversationTitle }) => ({ ...record, projectName, conversationTitle }));
}

/** Puts a new conversation of its author's in a project (only while it is in none). */
export async function setConversationProject(db: Db, conversationId: string, projectId: string): Promise<void> {
  await db
    .update(conversations)
    .set({ projectId })
    .where(and(eq(conversations.id, conversationId), sql`${conversations.projectId} is null`));
}

/** The conversations of a project that `userId` may see in its list: their own. */
export async function listProjectConversations(db: Db, userId: string, projectId: string): Promise<Array<{ id: string; title: string | null; updatedAt: Date }>> {
  return db
    .select({ id: conversations.id, title: conversations.title, updatedAt: conversations.updatedAt })
    .from(conversations)
    .where(and(eq(conversations.projectId, projectId), eq(conversations.ownerId, userId)))
    .orderBy(desc(conversations.updatedAt));
}

/**
 * Which of its project's datasets a conversation uses: those in the project (the conversation's)
 * that it had under /data, that is, added before one of its messages was written, and not shadowed
 * by a file of its own by the same name.
 */
const usedBy = (conversationId: SQL | string) =>
  and(
    sql`not exists (select 1 from ${conversationFiles} where ${conversationFiles.conversationId} = ${conversationId} and ${conversationFiles.name} = ${projectFiles.name})`,
    sql`exists (select 1 from ${messages} where ${messages.conversationId} = ${conversationId} and ${messages.updatedAt} >= ${projectFiles.createdAt})`,
  );

export type UsedDataset = { id: string; projectId: string; name: string; sha256: string; location: 'account' | 'device'; mediaType: string; size: number };
const usedColumns = { id: projectFiles.id, projectId: projectFiles.projectId, name: projectFiles.name, sha256: projectFiles.sha256, location: projectFiles.location, mediaType: projectFiles.mediaType, size: projectFiles.size };

/** The project's datasets this conversation uses (see `usedBy`), oldest first; none outside a project. */
export async function datasetsUsedBy(db: Db, conversationId: string): Promise<UsedDataset[]> {
  return db
    .select(usedColumns)
    .from(projectFiles)
    .innerJoin(conversations, and(eq(conversations.id, conversationId), eq(conversations.projectId, projectFiles.projectId)))
    .where(usedBy(conversationId))
    .orderBy(asc(projectFiles.createdAt), asc(projectFiles.name));
}

/** The project a dataset of a project's library is in, or null (no such dataset). */
export async function datasetProject(db: Db, datasetId: string): Promise<string | null> {
  const [row] = await db.select({ projectId: projectFiles.projectId }).from(projectFiles).where(eq(projectFiles.id, datasetId)).limit(1);
  return row?.projectId ?? null;
}

/** The authors of the conversations `userId` reads (directly or through a group) that use this dataset. */
export async function authorsSharingDataset(db: Db, userId: string, datasetId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ ownerId: conversations.ownerId })
    .from(conversations)
    .innerJoin(conversationReaders, and(eq(conversationReaders.conversationId, conversations.id), grantedTo(conversationReaders, userId)))
    .innerJoin(projectFiles, and(eq(projectFiles.id, datasetId), eq(projectFiles.projectId, conversations.projectId)))
    .where(usedBy(sql`${conversations.id}`));
  return rows.map((row) => row.ownerId);
}
