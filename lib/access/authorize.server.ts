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
 * project's other members are not its readers. A project's dataset: its project's members read it;
 * so does a conversation's reader, for the datasets that conversation uses (read-only, and only
 * while its author may still read them), never the project's other datasets nor the project. A share link: whoever holds an active link reads
 * its snapshot, re-runs it, reads the files it holds and exports it — anyone (no one signed in
 * included) when the link is for anyone, only people signed in to an account of this instance
 * when it is for them (or when the operator allows only such links, RUNPAD_PUBLIC_SHARES=signed-in),
 * and no one while the operator turned links off (RUNPAD_PUBLIC_SHARES=off). Nobody else may do
 * anything, guests and no one included. `authorize` answers with the refusal route() shows: 404 to
 * whoever may not read (the same as an id that names nothing), 403 to whoever may read but not do
 * this, and to no one or a guest at a signed-in people's link, the 401 that sends them to sign in.
 */
import 'server-only';
import { getConfig } from '@/lib/config.server';
import type { Db } from '@/lib/db/client.server';
import { authorsSharingDataset, conversationGrants, datasetProject, projectGrants, type MemberRole } from '@/lib/db/queries/projects.server';
import { activeShareAudience } from '@/lib/db/queries/shares.server';
import { AppError } from '@/lib/errors.server';

export const ACTIONS = ['read', 'run', 'continue', 'change_instructions', 'manage_members', 'read_dataset', 'export', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

/** Who asks: a person (a guest or an account) by id, or no one. */
export type Subject = { userId: string; kind: 'guest' | 'account' } | null;
/** `dataset`: a dataset of a project's library, by its id. */
export type Target = { project: string } | { conversation: string } | { share: string } | { dataset: string };
type Kind = 'project' | 'conversation' | 'share' | 'dataset';

/** What a person is to a project, a conversation or a share link (`link`: the link opens for them). */
export type Standing = 'owner' | MemberRole | 'reader' | 'link' | 'none';

const READ_ONLY = new Set<Action>(['read', 'run', 'read_dataset', 'export']);
const NOTHING = new Set<Action>();

const ALLOWED: Record<Kind, Record<Standing, ReadonlySet<Action>>> = {
  project: {
    owner: new Set(ACTIONS),
    edit: new Set<Action>(['read', 'run', 'continue', 'change_instructions', 'manage_members', 'read_dataset', 'export']),
    use: new Set<Action>(['read', 'run', 'continue', 'read_dataset', 'export']),
    reader: NOTHING,
    link: NOTHING,
    none: NOTHING,
  },
  conversation: {
    owner: new Set(ACTIONS),
    edit: NOTHING,
    use: NOTHING,
    reader: READ_ONLY,
    link: NOTHING,
    none: NOTHING,
  },
  // A link is changed and revoked through its conversation (manage_members there), never through itself.
  share: { owner: NOTHING, edit: NOTHING, use: NOTHING, reader: NOTHING, link: READ_ONLY, none: NOTHING },
  // A project's dataset is read by the project's members, and by the readers of a conversation that
  // uses it; it is changed and removed through its project (change_instructions), never through itself.
  dataset: { owner: READ_ONLY, edit: READ_ONLY, use: READ_ONLY, reader: READ_ONLY, link: NOTHING, none: NOTHING },
};

const kindOf = (target: Target): Kind => ('project' in target ? 'project' : 'conversation' in target ? 'conversation' : 'share' in target ? 'share' : 'dataset');

/** Whether the link opens for `who`; `signInFirst`: it would, once they sign in to an account. */
async function shareStanding(db: Db, who: Subject, shareId: string): Promise<{ standing: Standing; signInFirst: boolean }> {
  const links = getConfig().publicShares;
  const audience = links === 'off' ? null : await activeShareAudience(db, shareId);
  if (audience === null) return { standing: 'none', signInFirst: false };
  if (audience === 'anyone' && links === 'on') return { standing: 'link', signInFirst: false };
  return who?.kind === 'account' ? { standing: 'link', signInFirst: false } : { standing: 'none', signInFirst: true };
}

/** The person's standing on the project (the widest of their grants). */
async function projectStanding(db: Db, who: NonNullable<Subject>, projectId: string): Promise<Standing> {
  const grants = await projectGrants(db, who.userId, projectId);
  if (grants.projectOwner === null) return 'none';
  if (grants.projectOwner === who.userId) return 'owner';
  if (grants.projectRoles.includes('edit')) return 'edit';
  return grants.projectRoles.includes('use') ? 'use' : 'none';
}

/**
 * The person's standing on a project's dataset: their standing on its project; else `reader` when
 * they read a conversation that uses it (lib/db/queries/projects.server.ts, `datasetsUsedBy`) whose
 * author may still read the project's datasets (a reader's grant is the author's, never wider).
 */
async function datasetStanding(db: Db, who: NonNullable<Subject>, datasetId: string): Promise<Standing> {
  const projectId = await datasetProject(db, datasetId);
  if (!projectId) return 'none';
  const onProject = await projectStanding(db, who, projectId);
  if (onProject !== 'none') return onProject;
  for (const author of await authorsSharingDataset(db, who.userId, datasetId)) {
    if (ALLOWED.project[await projectStanding(db, { userId: author, kind: 'account' }, projectId)].has('read_dataset')) return 'reader';
  }
  return 'none';
}

/** What `who` is to the target: owner, edit, use, reader or none. */
export async function standingOn(db: Db, who: Subject, target: Target): Promise<Standing> {
  if ('share' in target) return (await shareStanding(db, who, target.share)).standing;
  if (!who) return 'none';
  if ('project' in target) return projectStanding(db, who, target.project);
  if ('dataset' in target) return datasetStanding(db, who, target.dataset);
  const grants = await conversationGrants(db, who.userId, target.conversation);
  if (grants.conversationOwner === null) return 'none';
  if (grants.conversationOwner === who.userId) return 'owner';
  return grants.reader ? 'reader' : 'none';
}

/** May `who` do `action` to the target? The one rule (this module's header says it in words). */
export async function may(db: Db, who: Subject, action: Action, target: Target): Promise<boolean> {
  const kind = kindOf(target);
  if (!who && kind !== 'share') return false;
  const standing = await standingOn(db, who, target);
  if (!ALLOWED[kind][standing].has(action)) return false;
  // An author continues a conversation of a project only while they may still work in that project.
  if (who && 'conversation' in target && standing === 'owner' && action === 'continue') {
    const { conversationProjectId } = await conversationGrants(db, who.userId, target.conversation);
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
  const kind = kindOf(target);
  const reason = `${action} refused on ${kind}`;
  if ('share' in target) {
    if ((await shareStanding(db, who, target.share)).signInFirst) throw new AppError('share:sign_in_required', { reason });
    throw new AppError('share:not_found', { reason });
  }
  const notFound = kind === 'project' ? 'project:not_found' : kind === 'dataset' ? 'file:not_found' : 'conversation:not_found';
  if (action === 'read' || !(await may(db, who, 'read', target))) throw new AppError(notFound, { reason });
  throw new AppError(kind === 'conversation' ? 'conversation:not_allowed' : 'project:not_allowed', { reason });
}
