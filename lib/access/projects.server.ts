/**
 * What the projects' and shares' routes do once `authorize` (./authorize.server.ts) said yes:
 * a project's settings checked against the operator's (a model of the operator's list, a
 * model-sees policy never wider than RUNPAD_MODEL_SEES), its view for a member, and members and
 * readers added or removed with the audit of shares written alongside.
 */
import 'server-only';
import { z } from 'zod';
import { findConfiguredModel, getConfig } from '@/lib/config.server';
import type { Db } from '@/lib/db/client.server';
import { storedModelSees } from '@/lib/db/queries/model-inputs.server';
import {
  createProject,
  getProject,
  listProjectConversations,
  listProjectMembers,
  putConversationReader,
  putProjectMember,
  recordShare,
  removeConversationReader,
  removeProjectMember,
  updateProject,
  type Grantee,
  type Member,
  type MemberRole,
  type ProjectRow,
} from '@/lib/db/queries/projects.server';
import { listProjectInvitations, removeProjectInvitation, type PendingMember } from '@/lib/db/queries/project-invitations.server';
import { AppError } from '@/lib/errors.server';
import { modelSeesSchema, strictest, type ModelSees } from '@/lib/messages/model-input-schema';
import { standingOn, type Subject } from './authorize.server';

const fields = {
  name: z.string().trim().min(1).max(200),
  instructions: z.string().max(20_000),
  model: z.string().trim().min(1).max(200),
  modelSees: modelSeesSchema,
};
export const newProjectSchema = z.strictObject({ name: fields.name, instructions: fields.instructions.optional(), model: fields.model.optional(), modelSees: fields.modelSees.optional() });
export const projectChangeSchema = z.strictObject({ name: fields.name.optional(), instructions: fields.instructions.optional(), model: fields.model.nullable().optional(), modelSees: fields.modelSees.nullable().optional() });
export const memberRoleSchema = z.enum(['use', 'edit']);

/** A model id of the operator's list, or the refusal naming the ones there are. */
function checkedModel(model: string | null | undefined): string | null | undefined {
  if (model === null || model === undefined) return model;
  if (findConfiguredModel(model)) return model;
  const offered = getConfig().models.models.map((entry) => entry.id);
  throw new AppError('request:invalid', { message: `This Runpad offers no model "${model}": pick one of ${offered.join(', ')}.`, reason: 'unknown model' });
}

/** The policy stored: never wider than the operator's. */
const clamped = (modelSees: ModelSees | null | undefined) => (modelSees ? strictest(getConfig().modelSees, modelSees) : modelSees);

export async function makeProject(db: Db, ownerId: string, input: z.infer<typeof newProjectSchema>): Promise<ProjectRow> {
  return createProject(db, ownerId, { name: input.name, instructions: input.instructions, modelId: checkedModel(input.model), modelSees: clamped(input.modelSees) });
}

export async function changeProject(db: Db, id: string, input: z.infer<typeof projectChangeSchema>): Promise<ProjectRow | null> {
  return updateProject(db, id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.instructions !== undefined ? { instructions: input.instructions } : {}),
    ...(input.model !== undefined ? { modelId: checkedModel(input.model) } : {}),
    ...(input.modelSees !== undefined ? { modelSees: clamped(input.modelSees) } : {}),
  });
}

/** What the model may see in the project's conversations: the strictest of the operator's and the project's. */
export const projectModelSees = (project: Pick<ProjectRow, 'modelSees'>): ModelSees => strictest(getConfig().modelSees, storedModelSees(project.modelSees));

export type ProjectView = {
  id: string;
  name: string;
  instructions: string;
  model: string | null;
  modelSees: ModelSees;
  /** The asker's standing: owner, edit or use. */
  role: 'owner' | MemberRole;
  owner: string;
  members: Member[];
  /** Emails invited that no account has yet (lib/access/project-invitations.server.ts): to its owner and editors only. */
  invitations: PendingMember[];
  /** The asker's own conversations in it. */
  conversations: Array<{ id: string; title: string | null; updatedAt: Date }>;
};

/** The project as a member sees it (the caller authorized `read`). */
export async function projectView(db: Db, who: NonNullable<Subject>, id: string): Promise<ProjectView> {
  const project = await getProject(db, id);
  const standing = await standingOn(db, who, { project: id });
  if (!project || (standing !== 'owner' && standing !== 'edit' && standing !== 'use')) throw new AppError('project:not_found', { reason: 'project gone' });
  return {
    id,
    name: project.name,
    instructions: project.instructions,
    model: project.modelId,
    modelSees: projectModelSees(project),
    role: standing,
    owner: project.ownerId,
    members: await listProjectMembers(db, id),
    invitations: standing === 'use' ? [] : await listProjectInvitations(db, id),
    conversations: await listProjectConversations(db, who.userId, id),
  };
}

/** Adds a member (or changes their role) and records the share; the owner is no member of their own project. */
export async function addMember(db: Db, actorId: string, projectId: string, grantee: Grantee, role: MemberRole): Promise<string> {
  const project = await getProject(db, projectId);
  if (!project) throw new AppError('project:not_found', { reason: 'project gone' });
  if (grantee.userId === project.ownerId) throw new AppError('request:invalid', { message: 'This person owns the project: they can already do everything in it.', reason: 'owner as member' });
  const id = await putProjectMember(db, projectId, grantee, role, actorId);
  await recordShare(db, { actorId, kind: 'member_added', projectId, subjectUserId: grantee.userId ?? null, subjectGroupId: grantee.groupId ?? null, role });
  return id;
}

/** Removes a member, or an invitation still waiting for its account (both are listed as the project's members). */
export async function removeMember(db: Db, actorId: string, projectId: string, memberId: string): Promise<void> {
  const removed = await removeProjectMember(db, projectId, memberId);
  if (removed) return recordShare(db, { actorId, kind: 'member_removed', projectId, subjectUserId: removed.userId, subjectGroupId: removed.groupId, role: removed.role });
  const invitation = await removeProjectInvitation(db, projectId, memberId);
  if (!invitation) throw new AppError('member:not_found', { reason: 'no such member' });
  await recordShare(db, { actorId, kind: 'member_removed', projectId, subjectUserId: null, subjectGroupId: null, subjectEmail: invitation.email, role: invitation.role });
}

export async function addReader(db: Db, actorId: string, conversationId: string, grantee: Grantee): Promise<string> {
  if (grantee.userId === actorId) throw new AppError('request:invalid', { message: 'This is your own conversation: share it with someone else.', reason: 'owner as reader' });
  const id = await putConversationReader(db, conversationId, grantee, actorId);
  await recordShare(db, { actorId, kind: 'reader_added', conversationId, subjectUserId: grantee.userId ?? null, subjectGroupId: grantee.groupId ?? null });
  return id;
}

export async function removeReader(db: Db, actorId: string, conversationId: string, readerId: string): Promise<void> {
  const removed = await removeConversationReader(db, conversationId, readerId);
  if (!removed) throw new AppError('member:not_found', { reason: 'no such reader' });
  await recordShare(db, { actorId, kind: 'reader_removed', conversationId, subjectUserId: removed.userId, subjectGroupId: removed.groupId });
}
