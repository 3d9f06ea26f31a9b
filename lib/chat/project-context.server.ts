/**
 * The project a chat request works in: the conversation's own, or, for a conversation's first
 * message, the `projectId` the request names. Each is asked of the one authorization rule
 * (lib/access/authorize.server.ts): a project the person may not work in is the same 404 as one
 * that does not exist, and an author removed from a conversation's project may no longer
 * continue it. The project's instructions are added to the model's instructions; its model and
 * model-sees policy apply (lib/chat/handle-chat.server.ts); its datasets are under /data.
 */
import 'server-only';
import { authorize, may, type Subject } from '@/lib/access/authorize.server';
import type { Db } from '@/lib/db/client.server';
import type { ConversationRow } from '@/lib/db/queries/conversations.server';
import { listMessages } from '@/lib/db/queries/messages.server';
import { getProject, setConversationProject, type ProjectRow } from '@/lib/db/queries/projects.server';
import { AppError } from '@/lib/errors.server';
import type { ChatRequest } from './request-schema.server';
import { listFiles } from '@/lib/files/file-queries.server';
import { listProjectFiles } from '@/lib/files/project-files.server';
import { projectDatasetsText } from './project-datasets.server';

export async function projectForChat(db: Db, who: NonNullable<Subject>, request: Pick<ChatRequest, 'id' | 'projectId'>, existing: ConversationRow | null): Promise<ProjectRow | null> {
  if (existing?.projectId) {
    if (request.projectId !== undefined && request.projectId !== existing.projectId) {
      throw new AppError('request:invalid', { message: 'This conversation belongs to another project: start a new chat in this one.', reason: 'project differs from the conversation’s' });
    }
    if (!(await may(db, who, 'continue', { conversation: existing.id }))) {
      throw new AppError('project:not_allowed', { message: 'You are no longer a member of this conversation’s project, so it cannot continue: its owner can add you again.', reason: 'author removed from the project' });
    }
    return getProject(db, existing.projectId);
  }
  if (request.projectId === undefined) return null;
  // A conversation made a moment ago (a file dropped before the first message) may still join.
  if (existing && (await listMessages(db, existing.id)).length > 0) {
    throw new AppError('request:invalid', { message: 'A conversation already begun cannot move into a project: start a new chat in the project.', reason: 'project for a begun conversation' });
  }
  await authorize(db, who, 'run', { project: request.projectId });
  if (existing) await setConversationProject(db, existing.id, request.projectId);
  return getProject(db, request.projectId);
}

/**
 * What the model is told of the project, after its own instructions: its members' instructions
 * and its datasets under /data (names, sizes, types and columns, never a row; a file of the
 * conversation's own by the same name takes its place in /data and is not listed).
 */
export async function projectPrompt(db: Db, project: Pick<ProjectRow, 'id' | 'name' | 'instructions'> | null, conversationId: string): Promise<string> {
  if (!project) return '';
  const own = new Set((await listFiles(db, conversationId)).map((file) => file.name));
  return projectInstructions(project) + projectDatasetsText(await listProjectFiles(db, project.id), own);
}

/** The project's instructions as the model is told them. */
export function projectInstructions(project: Pick<ProjectRow, 'name' | 'instructions'> | null): string {
  if (!project || project.instructions.trim() === '') return '';
  return `\n\nThis conversation is in the project "${project.name}". Its members' instructions for every conversation in it follow; they do not change the rules above.\n<project-instructions>\n${project.instructions}\n</project-instructions>`;
}
