/**
 * The one authorization rule: may this person do this to this project or conversation. Every
 * route, page, share, export, stream resume, re-run and file read that touches a project or
 * someone's conversation asks here, and nowhere else.
 *
 * A project: its owner may do everything; a member who can edit (directly or through a group)
 * everything but delete it; a member who can use it reads it, starts and continues conversations
 * in it, reads its datasets' bytes and exports. A conversation: its author may do everything (in a
 * project, continuing it also needs the project still: a removed member's conversations stop);
 * a reader (directly or through a group) reads it, re-runs it in their browser, reads its files'
 * bytes and exports it. A conversation in a project is its author's alone until shared: the
 * project's other members are not its readers. Nobody else may do anything, guests and no one
 * included. `authorize` answers with the refusal route() shows: 404 to whoever may not read (the
 * same as an id that names nothing), 403 to whoever may read but not do this.
 */
import 'server-only';
import type { Db } from '@/lib/db/client.server';
import { conversationGrants, projectGrants, type MemberRole } from '@/lib/db/queries/projects.server';
import { AppError } from '@/lib/errors.server';

export const ACTIONS = ['read', 'run', 'continue', 'change_instructions', 'manage_members', 'read_dataset', 'export', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

/** Who asks: a person (a guest or an account) by id, or no one. */
export type Subject = { userId: string; kind: 'guest' | 'account' } | null;
export type Target = { project: string } | { conversation: string };

/** What a person is to a project or a conversation. */
export type Standing = 'owner' | MemberRole | 'reader' | 'none';

const ALLOWED: Record<'project' | 'conversation', Record<Standing, ReadonlySet<Action>>> = {
  project: {
    owner: new Set(ACTIONS),
    edit: new Set<Action>(['read', 'run', 'continue', 'change_instructions', 'manage_members', 'read_dataset', 'export']),
    use: new Set<Action>(['read', 'run', 'continue', 'read_dataset', 'export']),
    reader: new Set<Action>(),
    none: new Set<Action>(),
  },
  conversation: {
    owner: new Set(ACTIONS),
    edit: new Set<Action>(),
    use: new Set<Action>(),
    reader: new Set<Action>(['read', 'run', 'read_dataset', 'export']),
    none: new Set<Action>(),
  },
};

/** The person's standing on the project (the widest of their grants). */
async function projectStanding(db: Db, who: NonNullable<Subject>, projectId: string): Promise<Standing> {
  const grants = await projectGrants(db, who.userId, projectId);
  if (grants.projectOwner === null) return 'none';
  if (grants.projectOwner === who.userId) return 'owner';
  if (grants.projectRoles.includes('edit')) return 'edit';
  return grants.projectRoles.includes('use') ? 'use' : 'none';
}

/** What `who` is to the target: owner, edit, use, reader or none. */
export async function standingOn(db: Db, who: Subject, target: Target): Promise<Standing> {
  if (!who) return 'none';
  if ('project' in target) return projectStanding(db, who, target.project);
  const grants = await conversationGrants(db, who.userId, target.conversation);
  if (grants.conversationOwner === null) return 'none';
  if (grants.conversationOwner === who.userId) return 'owner';
  return grants.reader ? 'reader' : 'none';
}

/** May `who` do `action` to the target? The one rule (this module's header says it in words). */
export async function may(db: Db, who: Subject, action: Action, target: Target): Promise<boolean> {
  if (!who) return false;
  const kind = 'project' in target ? 'project' : 'conversation';
  const standing = await standingOn(db, who, target);
  if (!ALLOWED[kind][standing].has(action)) return false;
  // An author continues a conversation of a project only while they may still work in that project.
  if (kind === 'conversation' && standing === 'owner' && action === 'continue') {
    const { conversationProjectId } = await conversationGrants(db, who.userId, (target as { conversation: string }).conversation);
    if (conversationProjectId) return ALLOWED.project[await projectStanding(db, who, conversationProjectId)].has('continue');
  }
  return true;
}

/**
 * `may`, as the refusal a route throws: nothing when allowed; the target's 404 when `who` may not
 * even read it (so its existence is not told); 403 in words when they may read it but not do this.
 */
export async function authorize(db: Db, who: Subject, action: Action, target: Target): Promise<void> {
  if (await may(db, who, action, target)) return;
  const project = 'project' in target;
  const reason = `${action} refused on ${project ? 'project' : 'conversation'}`;
  if (action === 'read' || !(await may(db, who, 'read', target))) throw new AppError(project ? 'project:not_found' : 'conversation:not_found', { reason });
  throw new AppError(project ? 'project:not_allowed' : 'conversation:not_allowed', { reason });
}
