/**
 * Project memberships waiting for an account (project_invitations), the rows only: an email no
 * account had when it was added, with the role it will have. Who may add or remove one, and when
 * one becomes a membership, is lib/access/project-invitations.server.ts.
 */
import 'server-only';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.server';
import { projectInvitations, projectMembers } from '../schema.server';
import type { MemberRole } from './projects.server';

export type PendingMember = { id: string; email: string; role: MemberRole; invitedAt: Date };

/**
 * An email as a pending membership is keyed: Unicode NFC, no spaces around, lower case (an account's
 * email is compared the same way when it claims its invitations).
 */
export const normalisedEmail = (email: string): string => email.normalize('NFC').trim().toLowerCase();

/** Adds (or changes the role of) the project's invitation for this email; its row's id, and whether it is new. */
export async function putProjectInvitation(db: Db, projectId: string, email: string, role: MemberRole, invitedBy: string): Promise<{ id: string; created: boolean }> {
  const key = normalisedEmail(email);
  const [existing] = await db
    .select({ id: projectInvitations.id })
    .from(projectInvitations)
    .where(and(eq(projectInvitations.projectId, projectId), eq(projectInvitations.email, key)))
    .limit(1);
  const [row] = await db
    .insert(projectInvitations)
    .values({ id: crypto.randomUUID(), projectId, email: key, role, invitedBy })
    .onConflictDoUpdate({ target: [projectInvitations.projectId, projectInvitations.email], set: { role } })
    .returning({ id: projectInvitations.id });
  return { id: row!.id, created: existing === undefined };
}

export async function countProjectInvitations(db: Db, projectId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(projectInvitations).where(eq(projectInvitations.projectId, projectId));
  return row?.n ?? 0;
}

export async function listProjectInvitations(db: Db, projectId: string): Promise<PendingMember[]> {
  return db
    .select({ id: projectInvitations.id, email: projectInvitations.email, role: projectInvitations.role, invitedAt: projectInvitations.createdAt })
    .from(projectInvitations)
    .where(eq(projectInvitations.projectId, projectId))
    .orderBy(asc(projectInvitations.createdAt), asc(projectInvitations.id));
}

/** Removes a project's invitation; the removed row, or null when it is not this project's. */
export async function removeProjectInvitation(db: Db, projectId: string, id: string): Promise<{ email: string; role: MemberRole } | null> {
  const [row] = await db
    .delete(projectInvitations)
    .where(and(eq(projectInvitations.projectId, projectId), eq(projectInvitations.id, id)))
    .returning({ email: projectInvitations.email, role: projectInvitations.role });
  return row ?? null;
}

/**
 * Makes every invitation for this email a membership of `userId` (a membership it already has
 * stays as it is), in one transaction; the projects joined, with the role and who invited them.
 */
export async function claimProjectInvitations(db: Db, userId: string, email: string): Promise<Array<{ projectId: string; role: MemberRole; invitedBy: string | null }>> {
  const key = normalisedEmail(email);
  return db.transaction(async (tx) => {
    const pending = await tx
      .delete(projectInvitations)
      .where(eq(projectInvitations.email, key))
      .returning({ projectId: projectInvitations.projectId, role: projectInvitations.role, invitedBy: projectInvitations.invitedBy });
    if (pending.length === 0) return [];
    await tx
      .insert(projectMembers)
      .values(pending.map((row) => ({ id: crypto.randomUUID(), projectId: row.projectId, userId, role: row.role, addedBy: row.invitedBy })))
      .onConflictDoNothing();
    const joined = await tx
      .select({ projectId: projectMembers.projectId })
      .from(projectMembers)
      .where(and(eq(projectMembers.userId, userId), inArray(projectMembers.projectId, pending.map((row) => row.projectId))));
    const member = new Set(joined.map((row) => row.projectId));
    return pending.filter((row) => member.has(row.projectId));
  });
}
