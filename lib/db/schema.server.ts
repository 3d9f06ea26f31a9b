/** The database schema (Drizzle, Postgres). Migrations in lib/db/migrations are generated from it. */
import 'server-only';
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, customType, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { authUsers } from './auth-tables.server';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Bytes a conversation or a guest references (uploads and run outputs): the storage quotas. */
const storedBytes = () => bigint('stored_bytes', { mode: 'number' }).notNull().default(0);

/**
 * Everyone who owns work: a guest (id from the signed guest cookie) or a person with an account
 * (the same id as their auth_users row). The limit columns override the instance's defaults for
 * this person when set (the admin page writes them); blocked people are refused everything.
 */
export const users = pgTable('users', {
  id: uuid('id').primaryKey(),
  storedBytes: storedBytes(),
  /** Model requests this person has made (admitted by the limits), for the admin page. */
  modelRequests: bigint('model_requests', { mode: 'number' }).notNull().default(0),
  blockedAt: timestamp('blocked_at', { withTimezone: true }),
  modelRequestsPerMinute: integer('model_requests_per_minute'),
  modelRequestsPerDay: integer('model_requests_per_day'),
  storageBytes: bigint('storage_bytes', { mode: 'number' }),
  /** Model tokens (input and output) this person may use in 24 hours; null: RUNPAD_TOKENS_PER_DAY. */
  tokensPerDay: bigint('tokens_per_day', { mode: 'number' }),
  createdAt: createdAt(),
});

export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title'),
    titleEdited: boolean('title_edited').notNull().default(false),
    /** The model picked for it (an id of the operator's list, lib/ai/model-catalog.server.ts); null: the default. */
    modelId: text('model_id'),
    /** What the model may see here, when stricter than the operator's RUNPAD_MODEL_SEES (lib/ai/model-sees.server.ts); null: the operator's. */
    modelSees: text('model_sees'),
    /** The project it was started in (its instructions, model and model-sees policy apply); null: none. A deleted project leaves its conversations to their authors. */
    projectId: uuid('project_id').references((): AnyPgColumn => projects.id, { onDelete: 'set null' }),
    storedBytes: storedBytes(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('conversations_owner_updated').on(t.ownerId, t.updatedAt.desc()), index('conversations_project').on(t.projectId)],
);

/**
 * A project: instructions added to the model's instructions for every conversation started in
 * it, a default model and a model-sees policy (never wider than the operator's), its members.
 * Who may do what to it is one rule: lib/access/authorize.server.ts.
 */
export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    instructions: text('instructions').notNull().default(''),
    /** An id of the operator's model list; null: the instance's default. */
    modelId: text('model_id'),
    /** `outputs` or `schema`; null: the operator's RUNPAD_MODEL_SEES. */
    modelSees: text('model_sees'),
    /** Bytes its uploaded datasets hold (the per-conversation storage limit applies to a project too). */
    storedBytes: storedBytes(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('projects_owner').on(t.ownerId), check('projects_model_sees', sql`${t.modelSees} is null or ${t.modelSees} in ('outputs', 'schema')`)],
);

/** Groups of accounts an admin makes on /admin: a group can be a project's member or a conversation's reader. */
export const groups = pgTable('groups', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  createdBy: uuid('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who put them in: an admin on /admin (`admin`), or the sign-in provider's groups claim (`oidc`, kept in step at each sign-in). */
    source: text('source').$type<'admin' | 'oidc'>().notNull().default('admin'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_members_user').on(t.userId), check('group_members_source', sql`${t.source} in ('admin', 'oidc')`)],
);

/** A grant to one account or one group (exactly one of the two): a project's member, a conversation's reader. */
function granteeColumns() {
  return {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'cascade' }),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  };
}
const oneGrantee = (table: string, t: { userId: AnyPgColumn; groupId: AnyPgColumn }) => check(`${table}_one_grantee`, sql`(${t.userId} is null) <> (${t.groupId} is null)`);

/** A project's members besides its owner: `use` (start conversations in it) or `edit` (also its instructions and members). */
export const projectMembers = pgTable(
  'project_members',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    ...granteeColumns(),
    role: text('role', { enum: ['use', 'edit'] }).notNull(),
  },
  (t) => [
    uniqueIndex('project_members_user').on(t.projectId, t.userId),
    uniqueIndex('project_members_group').on(t.projectId, t.groupId),
    index('project_members_by_user').on(t.userId),
    index('project_members_by_group').on(t.groupId),
    oneGrantee('project_members', t),
    check('project_members_role', sql`${t.role} in ('use', 'edit')`),
  ],
);

/**
 * A project membership waiting for its account: an email no account had when an owner or editor
 * added it (normalised: NFC, trimmed, lower case), with the role it will have. It grants nothing;
 * it becomes a project_members row when an account with that email signs in (its email verified
 * where this Runpad verifies emails): lib/access/project-invitations.server.ts.
 */
export const projectInvitations = pgTable(
  'project_invitations',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ['use', 'edit'] }).notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('project_invitations_email').on(t.projectId, t.email),
    index('project_invitations_by_email').on(t.email),
    check('project_invitations_role', sql`${t.role} in ('use', 'edit')`),
  ],
);

/** Who may read a conversation besides its author (read-only, at /c/<id>, after sign-in). */
export const conversationReaders = pgTable(
  'conversation_readers',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    ...granteeColumns(),
  },
  (t) => [
    uniqueIndex('conversation_readers_user').on(t.conversationId, t.userId),
    uniqueIndex('conversation_readers_group').on(t.conversationId, t.groupId),
    index('conversation_readers_by_user').on(t.userId),
    index('conversation_readers_by_group').on(t.groupId),
    oneGrantee('conversation_readers', t),
  ],
);

/**
 * Who shared what with whom, and when (lib/db/queries/share-audit.server.ts is its one writer;
 * /admin lists it): a project member or a conversation reader added or removed. Emails and names
 * are copied in, and nothing is a reference, so the record outlives the people and things in it.
 */
export const shareAudit = pgTable(
  'share_audit',
  {
    id: uuid('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    /** `member_added`, `member_invited` (an email with no account yet: subjectEmail), `member_removed`, `reader_added`, `reader_removed`. */
    kind: text('kind').notNull(),
    projectId: uuid('project_id'),
    conversationId: uuid('conversation_id'),
    /** The account shared with (its email then), or the group (its name then). */
    subjectUserId: uuid('subject_user_id'),
    subjectEmail: text('subject_email'),
    subjectGroupId: uuid('subject_group_id'),
    subjectGroupName: text('subject_group_name'),
    /** A member's role: `use` or `edit`; null for a reader. */
    role: text('role'),
  },
  (t) => [index('share_audit_at').on(t.at)],
);

export const messages = pgTable(
  'messages',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    seq: integer('seq').notNull(),
    role: text('role').notNull(),
    parts: jsonb('parts').notNull(),
    metadata: jsonb('metadata'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.id] }), index('messages_conversation_seq').on(t.conversationId, t.seq)],
);

/**
 * One row per stored content. The bytes live in the blob store (lib/blobs), not here; `bytes` is
 * only read once, to move blobs stored by earlier versions out of the database. What the bytes
 * are (media type, name) belongs to each reference, not to the content.
 */
export const blobs = pgTable('blobs', {
  sha256: text('sha256').primaryKey(),
  size: integer('size').notNull(),
  bytes: bytea('bytes'),
  createdAt: createdAt(),
});

export const conversationBlobs = pgTable(
  'conversation_blobs',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    sha256: text('sha256')
      .notNull()
      .references(() => blobs.sha256),
    mediaType: text('media_type').notNull(),
    size: integer('size').notNull(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.sha256] })],
);

/**
 * A data file's record, the same in a conversation and in a share made of it: its name, SHA-256,
 * where its bytes are (`account`: uploaded, the blob `blob_sha256`; `device`: kept on the device
 * that added it, never uploaded, no blob), media type and size.
 */
function fileColumns() {
  return {
    name: text('name').notNull(),
    /** The file's SHA-256, wherever its bytes are; a fork's device file: the value its share showed. */
    sha256: text('sha256').notNull(),
    /** What that value was salted with, oldest first (lib/security/salted-hash.ts); empty: the file's own SHA-256. */
    hashSalts: text('hash_salts').array().notNull().default(sql`'{}'::text[]`),
    location: text('location', { enum: ['account', 'device'] }).notNull().default('account'),
    blobSha256: text('blob_sha256').references(() => blobs.sha256),
    mediaType: text('media_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
  };
}

/** An account file's blob is its own bytes; a device file has none. */
function blobByLocation(table: string, t: { location: AnyPgColumn; blobSha256: AnyPgColumn; sha256: AnyPgColumn }) {
  return check(`${table}_blob_by_location`, sql`(${t.location} = 'account' and ${t.blobSha256} = ${t.sha256}) or (${t.location} = 'device' and ${t.blobSha256} is null)`);
}

export const conversationFiles = pgTable(
  'conversation_files',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    ...fileColumns(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.name] }), blobByLocation('conversation_files', t)],
);

/**
 * A project's dataset library: files uploaded to the project (`account`, the blob `blob_sha256`,
 * counted against the uploader's storage and the project's) and files kept on a member's device
 * (`device`: a name, size, columns and SHA-256, never bytes; each member drops their own copy,
 * checked by that hash). Read by its members through lib/access/authorize.server.ts
 * (`read_dataset`); every conversation started in the project has them under /data.
 */
export const projectFiles = pgTable(
  'project_files',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    ...fileColumns(),
    /** The columns the adding browser's reader found (names and types, never a value): `{name, type}[]`; null: not read. */
    columns: jsonb('columns'),
    /** Whether the column names come from a header row (false: the reader's own, column0…). */
    header: boolean('header'),
    rows: bigint('rows', { mode: 'number' }),
    /** Who added it (whose storage an upload counts against); null once their account is gone. */
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('project_files_name').on(t.projectId, t.name), index('project_files_blob').on(t.blobSha256), blobByLocation('project_files', t)],
);

export type ShareAudience = 'anyone' | 'signed_in';

export const shares = pgTable(
  'shares',
  {
    id: text('id').primaryKey(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title'),
    snapshot: jsonb('snapshot').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Who the link opens for: `anyone` with it, or `signed_in` people of this instance only (lib/access/authorize.server.ts). */
    audience: text('audience').$type<ShareAudience>().notNull().default('anyone'),
  },
  // A conversation has at most one active link: Share pressed twice at once updates it, never
  // makes a second (createOrUpdateShare's upsert names this index).
  (t) => [
    index('shares_conversation').on(t.conversationId),
    uniqueIndex('shares_one_active').on(t.conversationId).where(sql`${t.revokedAt} is null`),
    check('shares_audience', sql`${t.audience} in ('anyone', 'signed_in')`),
  ],
);

/** What a share grants: the blobs its snapshot's messages reference, recorded when it is made or updated. */
export const shareBlobs = pgTable(
  'share_blobs',
  {
    shareId: text('share_id')
      .notNull()
      .references(() => shares.id, { onDelete: 'cascade' }),
    sha256: text('sha256')
      .notNull()
      .references(() => blobs.sha256),
    mediaType: text('media_type').notNull(),
    size: integer('size').notNull(),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.sha256] })],
);

/** The conversation's files as they were when the share was made or updated. */
export const shareFiles = pgTable(
  'share_files',
  {
    shareId: text('share_id')
      .notNull()
      .references(() => shares.id, { onDelete: 'cascade' }),
    // As in conversation_files: a `device` file's bytes are on the owner's device, and a reader must drop the same file to re-run with it.
    ...fileColumns(),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.name] }), blobByLocation('share_files', t)],
);

/**
 * One row per model call: a chat request's answer (its steps summed) or a conversation's title,
 * with the tokens the provider reported and their cost at the price configured then (null: the
 * model had no price). Written only by lib/db/queries/usage.server.ts. A deleted person's or
 * conversation's rows stay, without the link, so past totals do not change.
 */
export const modelUsage = pgTable(
  'model_usage',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    personId: uuid('person_id').references(() => users.id, { onDelete: 'set null' }),
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
    /** The catalog id (RUNPAD_MODELS) of the model called. */
    modelId: text('model_id').notNull(),
    /** 'answer' or 'title'. */
    kind: text('kind').notNull(),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull(),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull(),
    costUsd: doublePrecision('cost_usd'),
    /**
     * False while the call runs: its tokens are the estimate reserved before the provider was
     * asked (lib/usage/token-budget.server.ts), replaced by what the provider reported when it ends.
     */
    settled: boolean('settled').notNull().default(true),
    createdAt: createdAt(),
  },
  // By person and time (budgets, the person's share of a period), by time (the admin page's
  // periods), and by conversation (its deletion sets the link to null).
  (t) => [index('model_usage_person_created').on(t.personId, t.createdAt), index('model_usage_created').on(t.createdAt), index('model_usage_conversation').on(t.conversationId)],
);

/** Counters of the per-guest rate limits (lib/abuse/rate-limits.server.ts). */
export { rateLimits } from './rate-limit-table.server';

/** Accounts, sessions, provider links and passkeys (better-auth; lib/auth/auth.server.ts). */
export { authAccounts, authPasskeys, authSessions, authUsers, authVerifications } from './auth-tables.server';

/**
 * What a run in a page has done so far (lib/chat/run-progress.server.ts): its outputs and how long it has
 * run, saved while it runs, so a run cut off by a reload, a crash or a closed tab is stored with
 * them (lib/chat/abandoned-runs.server.ts). Rows are transient: consumed when the run is closed, and a
 * conversation's stale rows are removed as new ones are saved.
 */
export const runProgress = pgTable(
  'run_progress',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    toolCallId: text('tool_call_id').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    outputs: jsonb('outputs').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.toolCallId] })],
);

/**
 * Invitations an admin made on /admin (lib/db/queries/invitations.server.ts): a single-use link for one
 * email, kept as the SHA-256 of its token; used once (used_at), revoked by deleting the row.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    role: text('role').notNull().default('member'),
    tokenHash: text('token_hash').notNull().unique(),
    createdBy: uuid('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('invitations_email').on(t.email)],
);

/**
 * What admins did to accounts and invitations, newest last (lib/db/queries/admin-actions.server.ts
 * is its one writer; /admin lists it). The admin's and the account's emails are copied in, so the
 * record outlives a refused sign-up, a deleted account or a revoked invitation. Never a link.
 */
export const adminActions = pgTable(
  'admin_actions',
  {
    id: uuid('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    adminId: uuid('admin_id').references(() => authUsers.id, { onDelete: 'set null' }),
    adminEmail: text('admin_email').notNull(),
    /** One of ADMIN_ACTION_KINDS (lib/db/queries/admin-actions.server.ts). */
    kind: text('kind').notNull(),
    /** The account or person acted on (none for an invitation); not a reference, so it outlives them. */
    accountId: uuid('account_id'),
    /** Their email then; null for a guest. */
    accountEmail: text('account_email'),
  },
  (t) => [index('admin_actions_at').on(t.at)],
);

/**
 * What the server sent the model provider for one request (lib/ai/model-input.server.ts): the text and
 * images as sent (images by sha256 and size), recorded before the request is made, listed under
 * the answer the request wrote ("What the model saw"). An answer of several steps has several.
 */
export const modelInputs = pgTable(
  'model_inputs',
  {
    id: uuid('id').primaryKey(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    answerId: text('answer_id').notNull(),
    /** The policy it was built under: `outputs` or `schema`. */
    modelSees: text('model_sees').notNull(),
    content: jsonb('content').notNull(),
    textBytes: integer('text_bytes').notNull(),
    imageBytes: integer('image_bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('model_inputs_conversation').on(t.conversationId, t.answerId)],
);
