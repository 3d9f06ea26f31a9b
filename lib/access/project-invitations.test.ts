/**
 * A project's member added by an email no account has, through the routes as Next calls them, on
 * the embedded database and on Postgres: the email (generated: case, spaces, other scripts,
 * quotes, decomposed accents) waits, normalised, as one invitation listed to the project's editors
 * as "Invited" and removable; an account made with that email (through better-auth's own sign-up)
 * is a member at once, with the role given. Without a mail server the answer says no mail went;
 * with one, the mail names the project, the inviter and the link. On an invite-only Runpad an
 * admin's invitation also makes this Runpad's invitation link (unless the email is let in already);
 * an editor who is not an admin is refused in words, whatever the email.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, vi } from 'vitest';
import type { Db } from '@/lib/db/client.server';
import { AppError } from '@/lib/errors.server';
import { openForTests, pgliteBackend, serverBackend } from '@/lib/testing/databases';
import { startSmtpSink, type SmtpSink } from '@/lib/testing/smtp-sink';
import { stubEnvs } from '@/lib/testing/stub-env';

const ORIGIN = 'https://runpad.example';
type Who = { userId: string; kind: 'account'; isAdmin: boolean };
let identity: { ok: true; identity: Who } | { ok: false; refusal: AppError } = { ok: false, refusal: new AppError('session:sign_in_required') };
vi.mock('@/lib/auth/current-user.server', () => ({ sessionGuestId: async () => null, resolveIdentity: async () => identity }));
/** What the operator set, changed between the tests as between restarts: the access mode and the mail server. */
const operator = vi.hoisted(() => ({ mode: 'accounts' as 'open' | 'accounts' | 'invite', email: null as null | { smtpUrl: string; from: string }, allowed: [] as string[] }));
vi.mock('@/lib/config.server', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/lib/config.server')>();
  return {
    ...actual,
    getConfig: () => {
      const config = actual.getConfig();
      return { ...config, email: operator.email, access: { ...config.access, mode: operator.mode, allowedEmails: operator.allowed } };
    },
  };
});
/** The database the routes read: the backend this describe opened. */
const current = vi.hoisted(() => ({ db: null as unknown }));
vi.mock('@/lib/db/client.server', async (importOriginal) => ({ ...(await importOriginal<typeof import('@/lib/db/client.server')>()), getDb: async () => current.db }));

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  stubEnvs({
    RUNPAD_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-project-invitations-')),
    DATABASE_URL: '',
    AUTH_SECRET: 'project-invitations-secret-0123456789abcdef',
    RUNPAD_PUBLIC_ORIGIN: ORIGIN,
    RUNPAD_ACCESS: 'accounts',
    RUNPAD_ADMIN_EMAILS: '',
    RUNPAD_ALLOWED_EMAILS: '',
    RUNPAD_OIDC_ISSUER: '',
    RUNPAD_PASSWORD_SIGN_IN: '',
    RUNPAD_SMTP_URL: '',
    RUNPAD_LOG_LEVEL: 'silent',
  });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await smtp.close();
});

/** Emails no account has, as an inviter might type them, with the key each waits under. */
const ADVERSARIAL: Array<readonly [typed: string, key: string]> = [
  ['  Ünï.Cödé+Tag@Example.COM\t', 'ünï.cödé+tag@example.com'],
  ['"Quoted Name"@Example.com', '"quoted name"@example.com'],
  ["O'Brien-Invitee@Example.com", "o'brien-invitee@example.com"],
  ['用户@例子.公司', '用户@例子.公司'],
  // é decomposed (e + U+0301): waits under the composed form.
  ['Ele\u0301onore@EXAMPLE.com', 'el\u00e9onore@example.com'],
];

type Call = { method: 'GET' | 'POST' | 'DELETE'; path: string; body?: unknown };
async function call({ method, path: pathname, body }: Call): Promise<{ status: number; json: Record<string, unknown> | null }> {
  const [, , , id, , memberId] = pathname.split('/');
  const modules: Record<string, () => Promise<Record<string, unknown>>> = {
    project: () => import('@/app/api/projects/[id]/route'),
    projects: () => import('@/app/api/projects/route'),
    members: () => import('@/app/api/projects/[id]/members/route'),
    member: () => import('@/app/api/projects/[id]/members/[memberId]/route'),
  };
  const key = pathname === '/api/projects' ? 'projects' : memberId ? 'member' : pathname.endsWith('/members') ? 'members' : 'project';
  const handler = (await modules[key]!())[method] as (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
  const request = new Request(`${ORIGIN}${pathname}`, { method, headers: { origin: ORIGIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const response = await handler(request, { params: Promise.resolve({ id: id ?? '', memberId: memberId ?? '' }) });
  const text = await response.text();
  return { status: response.status, json: text && response.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(text) as Record<string, unknown>) : null };
}

let address = 0;
/** A sign-up through better-auth's own endpoint (a new auth instance for the operator's settings of the moment). */
async function signUp(email: string, extra: Record<string, unknown> = {}): Promise<number> {
  (globalThis as { runpadAuth?: Map<string, unknown> }).runpadAuth?.clear();
  const { getAuth } = await import('@/lib/auth/auth.server');
  address += 1;
  const response = await (await getAuth(ORIGIN)).handler(
    new Request(`${ORIGIN}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-runpad-client-address': `10.1.0.${address}` },
      body: JSON.stringify({ name: 'Invitee', email, password: 'a long password here', ...extra }),
    }),
  );
  return response.status;
}

for (const backend of [pgliteBackend(), serverBackend()]) {
  describe(`inviting an email with no account to a project, on ${backend.name}`, () => {
    let db: Db;
    const ids = { owner: crypto.randomUUID(), editor: crypto.randomUUID(), user: crypto.randomUUID(), admin: crypto.randomUUID(), stranger: crypto.randomUUID() };
    type Person = keyof typeof ids;
    const as = (who: Person) => (identity = { ok: true, identity: { userId: ids[who], kind: 'account', isAdmin: who === 'admin' } });
    const live = openForTests(backend, Object.values(ids), (opened) => {
      db = opened.db;
      current.db = opened.db;
    });
    let project = '';

    const accountOf = async (email: string) => {
      const { authUsers: users } = await import('@/lib/db/schema.server');
      return (await db.select().from(users).where(eq(users.email, email)))[0];
    };
    const pending = async () => {
      const { projectInvitations: rows } = await import('@/lib/db/schema.server');
      return (await db.select({ email: rows.email, role: rows.role }).from(rows).where(eq(rows.projectId, project))).map((row) => `${row.email} ${row.role}`).sort();
    };

    live('without a mail server: each email waits once, normalised, listed as invited to editors only; no mail went and the answer says to tell them', async () => {
      current.db = db;
      operator.mode = 'accounts';
      operator.email = null;
      const { authUsers: users } = await import('@/lib/db/schema.server');
      for (const who of Object.keys(ids) as Person[]) await db.insert(users).values({ id: ids[who], name: who, email: `${who}@example.com`, emailVerified: true, role: who === 'admin' ? 'admin' : 'member' });
      as('owner');
      const made = await call({ method: 'POST', path: '/api/projects', body: { name: 'Ventes Q3' } });
      project = made.json!.id as string;
      for (const [who, role] of [['editor', 'edit'], ['user', 'use'], ['admin', 'edit']] as const) expect((await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: `${who}@example.com`, role } })).status).toBe(201);

      const ADV = ADVERSARIAL;
      for (const [typed, key] of ADV) {
        const invited = await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: typed, role: 'use' } });
        expect([typed, invited.status, invited.json]).toEqual([typed, 201, expect.objectContaining({ status: 'invited', email: key, role: 'use', emailSent: false })]);
        expect(invited.json!.message).toMatch(/no email was sent .*tell them to make an account here with this email/);
        expect(invited.json).not.toHaveProperty('link');
        // The same email typed otherwise is the same invitation; its role changes.
        as('editor');
        const again = await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: ` ${typed.toUpperCase()} `, role: 'edit' } });
        expect([again.status, again.json?.id]).toEqual([201, invited.json!.id]);
        as('owner');
      }
      expect(await pending()).toEqual(ADV.map(([, key]) => `${key} edit`).sort());
      // Decomposed and composed accents are one key.
      const composed = await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: 'El\u00e9onore@example.com', role: 'edit' } });
      expect(composed.json!.email).toBe(ADV[4]![1]);
      expect((await pending()).length).toBe(ADV.length);

      // Listed to the owner and editors as invited; a member who can use it sees no invitation; others a 404.
      const listed = (await call({ method: 'GET', path: `/api/projects/${project}` })).json!;
      expect(listed.invitations).toEqual(ADV.map(([, key]) => expect.objectContaining({ email: key, role: 'edit' })));
      as('user');
      expect((await call({ method: 'GET', path: `/api/projects/${project}` })).json).toMatchObject({ role: 'use', invitations: [] });
      expect((await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: 'someone.new@example.com', role: 'use' } })).status).toBe(403);
      as('stranger');
      expect((await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: 'someone.new@example.com', role: 'use' } })).status).toBe(404);
      expect(await pending()).not.toContain('someone.new@example.com use');
      // What is not one email is refused before anything is looked up.
      as('owner');
      for (const bad of ['no-at-sign', 'a@b\u0000c', 'line\n@example.com', `${'a'.repeat(400)}@example.com`]) {
        expect([bad, (await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: bad, role: 'use' } })).status]).toEqual([bad, 400]);
      }
      // An invitation grants nothing: its email is no account.
      const { may } = await import('./authorize.server');
      expect(await may(db, { userId: crypto.randomUUID(), kind: 'account' }, 'read', { project })).toBe(false);

      // Removed like a member; a second removal names nothing.
      const quoted = (listed.invitations as Array<{ id: string; email: string }>).find((row) => row.email === ADV[1]![1])!;
      expect((await call({ method: 'DELETE', path: `/api/projects/${project}/members/${quoted.id}` })).status).toBe(204);
      expect((await call({ method: 'DELETE', path: `/api/projects/${project}/members/${quoted.id}` })).status).toBe(404);
      expect(await pending()).not.toContain(`${ADV[1]![1]} edit`);

      // The account made with that email (typed otherwise) is a member at once, with the role given.
      expect(await signUp("o'brien-INVITEE@example.com")).toBe(200);
      const invitee = await accountOf("o'brien-invitee@example.com");
      identity = { ok: true, identity: { userId: invitee!.id, kind: 'account', isAdmin: false } };
      expect((await call({ method: 'GET', path: '/api/projects' })).json).toEqual({ projects: [expect.objectContaining({ id: project, name: 'Ventes Q3' })] });
      expect((await call({ method: 'GET', path: `/api/projects/${project}` })).json).toMatchObject({ role: 'edit' });
      expect(await pending()).not.toContain(`${ADV[2]![1]} edit`);
      as('owner');
      const members = (await call({ method: 'GET', path: `/api/projects/${project}` })).json!.members as Array<{ email: string; role: string }>;
      expect(members).toContainEqual(expect.objectContaining({ email: "o'brien-invitee@example.com", role: 'edit' }));
    });

    live('where emails are confirmed (a mail server): the invitation waits for the account to confirm its email, then it is a member', async () => {
      current.db = db;
      operator.mode = 'accounts';
      operator.email = { smtpUrl: smtp.url, from: 'runpad@example.com' };
      try {
        as('owner');
        const invited = await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: 'Verify.Me@Example.com', role: 'use' } });
        expect(invited.json).toMatchObject({ status: 'invited', emailSent: true });
        const before = smtp.received.length;
        expect(await signUp('verify.me@example.com')).toBe(200);
        const account = await accountOf('verify.me@example.com');
        identity = { ok: true, identity: { userId: account!.id, kind: 'account', isAdmin: false } };
        // Signed in, not yet confirmed: nothing.
        expect((await call({ method: 'GET', path: `/api/projects/${project}` })).status).toBe(404);
        expect(await pending()).toContain('verify.me@example.com use');
        const mail = smtp.received.slice(before).find((m) => m.to === 'verify.me@example.com')!;
        const link = /https:\/\/runpad\.example\/api\/auth\/verify-email\?token=[^\s]+/.exec(mail.text)![0];
        const { getAuth } = await import('@/lib/auth/auth.server');
        const verified = await (await getAuth(ORIGIN)).handler(new Request(link, { headers: { 'x-runpad-client-address': '10.1.1.1' } }));
        expect(verified.status).toBeLessThan(400);
        expect((await call({ method: 'GET', path: `/api/projects/${project}` })).json).toMatchObject({ role: 'use' });
        expect(await pending()).not.toContain('verify.me@example.com use');
      } finally {
        operator.email = null;
      }
    });

    live('on an invite-only Runpad with a mail server: an admin’s invitation is mailed with this Runpad’s link; an editor’s is refused in words, whatever the email', async () => {
      current.db = db;
      operator.mode = 'invite';
      operator.email = { smtpUrl: smtp.url, from: 'runpad@example.com' };
      try {
        as('editor');
        const refused = await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: 'Newcomer@Example.com', role: 'use' } });
        expect([refused.status, refused.json?.error]).toEqual([403, expect.stringMatching(/an admin must invite them to this Runpad first/)]);
        expect(await pending()).not.toContainEqual(expect.stringContaining('newcomer@example.com'));

        as('admin');
        const before = smtp.received.length;
        const invited = await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: ' Newcomer@Example.com ', role: 'use' } });
        expect(invited.status).toBe(201);
        expect(invited.json).toMatchObject({ status: 'invited', email: 'newcomer@example.com', emailSent: true, message: expect.stringMatching(/an invitation was mailed to them/) });
        const link = invited.json!.link as string;
        expect(link).toMatch(new RegExp(`^${ORIGIN}/sign-in\\?invitation=[A-Za-z0-9_-]{43}&next=%2Fp%2F${project}$`));
        const mail = smtp.received.slice(before).find((m) => m.to === 'newcomer@example.com')!;
        expect(mail.text).toContain('Ventes Q3');
        expect(mail.text).toContain('admin@example.com');
        expect(mail.text).toContain(link);

        // Let in now (an open invitation to this Runpad), or on the allowed list: still refused to an editor, who learns nothing of either.
        as('editor');
        operator.allowed = ['@allowed.example'];
        for (const email of ['NEWCOMER@example.com', 'Someone@Allowed.Example']) {
          const again = await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email, role: 'edit' } });
          expect([email, again.status, again.json?.error]).toEqual([email, 403, refused.json?.error]);
        }
        // An admin's: a new role for the waiting invitation, and no second link for an email let in already.
        as('admin');
        expect((await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: 'NEWCOMER@example.com', role: 'edit' } })).json).toMatchObject({ id: invited.json!.id, role: 'edit', emailSent: true });
        const allowed = await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: 'Someone@Allowed.Example', role: 'use' } });
        expect(allowed.json).toMatchObject({ status: 'invited', emailSent: true });
        expect(allowed.json).not.toHaveProperty('link');

        // The invitation's link makes the account; it is a member at once, with the role last given.
        const token = new URL(link).searchParams.get('invitation');
        expect(await signUp('newcomer@example.com', { invitation: token })).toBe(200);
        const newcomer = await accountOf('newcomer@example.com');
        identity = { ok: true, identity: { userId: newcomer!.id, kind: 'account', isAdmin: false } };
        expect((await call({ method: 'GET', path: `/api/projects/${project}` })).json).toMatchObject({ role: 'edit' });
      } finally {
        operator.mode = 'accounts';
        operator.email = null;
        operator.allowed = [];
      }
    });
  });
}
