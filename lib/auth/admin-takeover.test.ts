/**
 * An admin cannot take over another account through the admin page: a password link is mailed
 * to the account's own email only and the admin is told "sent"; without a mail server it is
 * shown once, and never for an owner (RUNPAD_ADMIN_EMAILS) or another admin. Every admin action
 * on an account lands in the audit list (lib/db/queries/admin-actions.server.ts), without a link.
 * Called as Next calls the routes, on an embedded database and a mail server (lib/testing/smtp-sink.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '@/lib/errors.server';
import { stubEnvs } from '@/lib/testing/stub-env';
import { startSmtpSink, type SmtpSink } from '@/lib/testing/smtp-sink';

const ORIGIN = 'https://runpad.example';
type Who = { userId: string; kind: 'account'; isAdmin: boolean };
let identity: { ok: true; identity: Who } | { ok: false; refusal: AppError } = { ok: false, refusal: new AppError('session:sign_in_required') };
vi.mock('@/lib/auth/current-user.server', () => ({ sessionGuestId: async () => null, resolveIdentity: async () => identity }));

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  stubEnvs({
    RUNPAD_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-admin-takeover-')),
    DATABASE_URL: '',
    AUTH_SECRET: 'admin-takeover-secret-admin-takeover-0123',
    RUNPAD_PUBLIC_ORIGIN: ORIGIN,
    RUNPAD_ACCESS: 'invite',
    RUNPAD_ADMIN_EMAILS: 'owner@example.com, @owners.example',
    RUNPAD_ALLOWED_EMAILS: '',
    RUNPAD_OIDC_ISSUER: '',
    RUNPAD_SMTP_URL: smtp.url,
    RUNPAD_EMAIL_FROM: 'Runpad <runpad@example.com>',
    RUNPAD_LOG_LEVEL: 'silent',
  });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await smtp.close();
});

function request(method: string, pathname: string, body?: unknown): Request {
  return new Request(`${ORIGIN}${pathname}`, { method, headers: { origin: ORIGIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
}
const params = (id: string) => ({ params: Promise.resolve({ id }) });
const db = async () => (await import('@/lib/db/client.server')).getDb();
const resetRoute = () => import('@/app/api/admin/accounts/[id]/password-reset/route');
async function askReset(id: string): Promise<{ status: number; text: string }> {
  const response = await (await resetRoute()).POST(request('POST', `/api/admin/accounts/${id}/password-reset`), params(id));
  return { status: response.status, text: await response.text() };
}

/** Emails of every kind an admin may face: quotes, spaces in names, other scripts, plus signs. */
const PEOPLE = {
  owner: 'owner@example.com',
  listedOwner: 'zoë.o\'neil@owners.example',
  invitedAdmin: 'mallory+admin@example.com',
  otherAdmin: 'ада@example.com',
  member: "member.o'hara+tag@example.com",
};
async function newAccount(email: string, fields: { role?: string; emailVerified?: boolean } = {}): Promise<string> {
  const { authUsers } = await import('@/lib/db/schema.server');
  const id = crypto.randomUUID();
  await (await db()).insert(authUsers).values({ id, name: `name with "quotes" and\nlines ${email}`, email, emailVerified: fields.emailVerified ?? true, role: fields.role ?? 'member', admittedAt: new Date() });
  const { ensureUser } = await import('@/lib/db/queries/users.server');
  await ensureUser(await db(), id);
  return id;
}

const ids: Record<keyof typeof PEOPLE, string> = { owner: '', listedOwner: '', invitedAdmin: '', otherAdmin: '', member: '' };

describe('with a mail server', () => {
  it('a password link goes to the account’s own email only; the admin sees “sent”, never the link', async () => {
    for (const [who, email] of Object.entries(PEOPLE) as Array<[keyof typeof PEOPLE, string]>) {
      ids[who] = await newAccount(email, { role: who === 'invitedAdmin' || who === 'otherAdmin' ? 'admin' : 'member' });
    }
    // An admin made by an invitation turns on everyone, the owners included.
    identity = { ok: true, identity: { userId: ids.invitedAdmin, kind: 'account', isAdmin: true } };
    for (const who of ['owner', 'listedOwner', 'otherAdmin', 'member'] as const) {
      const before = smtp.received.length;
      const answer = await askReset(ids[who]);
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.text)).toEqual({ emailed: true });
      await vi.waitFor(() => expect(smtp.received.length).toBe(before + 1));
      const mail = smtp.received.at(-1)!;
      expect(mail.to).toBe(PEOPLE[who]);
      const token = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
      expect(answer.text).not.toContain(token);
      expect(answer.text).not.toContain('reset-password');
    }
  });
});

describe('without a mail server', () => {
  beforeAll(() => {
    vi.stubEnv('RUNPAD_SMTP_URL', '');
    vi.resetModules();
  });

  it('the link is shown once for a member, never for an owner (RUNPAD_ADMIN_EMAILS) or another admin', async () => {
    identity = { ok: true, identity: { userId: ids.invitedAdmin, kind: 'account', isAdmin: true } };
    const owner = await askReset(ids.owner);
    expect([owner.status, JSON.parse(owner.text).error]).toEqual([403, expect.stringMatching(/^No password link is shown for an admin/)]);
    for (const who of ['listedOwner', 'otherAdmin'] as const) {
      const refused = await askReset(ids[who]);
      expect(refused.status).toBe(403);
      expect(refused.text).not.toContain('reset-password');
    }
    // An unverified account whose email is on RUNPAD_ADMIN_EMAILS is no owner, but is not handed over either.
    const claimed = await newAccount('claims@owners.example', { emailVerified: false });
    expect((await askReset(claimed)).status).toBe(403);

    const member = await askReset(ids.member);
    expect(member.status).toBe(201);
    const body = JSON.parse(member.text) as { link: string; emailed: null };
    expect(body.emailed).toBeNull();
    expect(body.link).toMatch(new RegExp(`^${ORIGIN}/reset-password\\?token=[A-Za-z0-9_-]{32}$`));
  });

  it('every admin action on an account is in the audit list, with who, what and whom, never a link', async () => {
    identity = { ok: true, identity: { userId: ids.owner, kind: 'account', isAdmin: true } };
    const accounts = await import('@/app/api/admin/accounts/[id]/route');
    const people = await import('@/app/api/admin/people/[id]/route');
    const invitations = await import('@/app/api/admin/invitations/route');
    const invitation = await import('@/app/api/admin/invitations/[id]/route');
    const pending = await newAccount('waiting@example.com');
    const { authUsers } = await import('@/lib/db/schema.server');
    await (await db()).update(authUsers).set({ admittedAt: null, emailVerified: false }).where(eq(authUsers.id, pending));
    const unwanted = await newAccount('unwanted@example.com');
    await (await db()).update(authUsers).set({ admittedAt: null, emailVerified: false }).where(eq(authUsers.id, unwanted));

    const invited = await (await invitations.POST(request('POST', '/api/admin/invitations', { email: "O'Brien+Tag@example.com", role: 'admin' }))).json();
    expect((await invitation.DELETE(request('DELETE', `/api/admin/invitations/${invited.invitation.id}`), params(invited.invitation.id))).status).toBe(200);
    expect((await accounts.PATCH(request('PATCH', `/api/admin/accounts/${pending}`, { approved: true }), params(pending))).status).toBe(200);
    expect((await accounts.DELETE(request('DELETE', `/api/admin/accounts/${unwanted}`), params(unwanted))).status).toBe(200);
    expect((await accounts.PATCH(request('PATCH', `/api/admin/accounts/${ids.member}`, { role: 'admin' }), params(ids.member))).status).toBe(200);
    expect((await people.PATCH(request('PATCH', `/api/admin/people/${ids.member}`, { blocked: true }), params(ids.member))).status).toBe(200);
    expect((await people.PATCH(request('PATCH', `/api/admin/people/${ids.member}`, { limits: { modelRequestsPerMinute: 3, modelRequestsPerDay: null, storageBytes: null } }), params(ids.member))).status).toBe(200);
    expect((await askReset(pending)).status).toBe(201);
    // A refused one is recorded too: the attempt is what an owner wants to see.
    identity = { ok: true, identity: { userId: ids.invitedAdmin, kind: 'account', isAdmin: true } };
    expect((await askReset(ids.owner)).status).toBe(403);

    const { listAdminActions } = await import('@/lib/db/queries/admin-actions.server');
    const actions = await listAdminActions(await db());
    const line = (a: (typeof actions)[number]) => `${a.adminEmail} ${a.action} ${a.accountEmail}`;
    expect(actions.map(line)).toEqual(
      expect.arrayContaining([
        "owner@example.com invited o'brien+tag@example.com",
        "owner@example.com revoked the invitation of o'brien+tag@example.com",
        'owner@example.com approved waiting@example.com',
        'owner@example.com refused unwanted@example.com',
        `owner@example.com made admin ${PEOPLE.member}`,
        `owner@example.com blocked ${PEOPLE.member}`,
        `owner@example.com changed the limits of ${PEOPLE.member}`,
        'owner@example.com showed a password link for waiting@example.com',
        `${PEOPLE.invitedAdmin} mailed a password link to ${PEOPLE.owner}`,
        `${PEOPLE.invitedAdmin} was refused a password link for ${PEOPLE.owner}`,
      ]),
    );
    // Newest first, and no token of any link in it.
    expect(actions[0]!.action).toBe('was refused a password link for');
    expect(JSON.stringify(actions)).not.toMatch(/token|reset-password|invitation=/);
  });
});
