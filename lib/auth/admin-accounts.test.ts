/**
 * The admin page's account routes (app/api/admin/invitations, app/api/admin/accounts), called as
 * Next calls them, on an embedded database: only an admin, only from the app's own origin, only
 * valid bodies; then what each write does and the words of what it refuses.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { migratedDataDir } from '@/lib/testing/migrated-data-dir';
import { AppError } from '@/lib/errors.server';

const ORIGIN = 'http://localhost:3998';
type Who = { userId: string; kind: 'account'; isAdmin: boolean };
let identity: { ok: true; identity: Who } | { ok: false; refusal: AppError } = { ok: false, refusal: new AppError('session:sign_in_required') };
vi.mock('@/lib/auth/current-user.server', () => ({ sessionGuestId: async () => null, resolveIdentity: async () => identity }));

beforeAll(() => {
  vi.stubEnv('RUNPAD_DATA_DIR', migratedDataDir('runpad-admin-accounts-'));
  vi.stubEnv('DATABASE_URL', '');
  vi.stubEnv('AUTH_SECRET', 'admin-accounts-secret-admin-accounts-0123');
  vi.stubEnv('RUNPAD_PUBLIC_ORIGIN', ORIGIN);
  vi.stubEnv('RUNPAD_ACCESS', 'invite');
  vi.stubEnv('RUNPAD_ADMIN_EMAILS', 'boss@example.com');
  vi.stubEnv('RUNPAD_ALLOWED_EMAILS', '');
  vi.stubEnv('RUNPAD_SMTP_URL', '');
  vi.stubEnv('RUNPAD_LOG_LEVEL', 'silent');
});

const invitations = () => import('@/app/api/admin/invitations/route');
const invitation = () => import('@/app/api/admin/invitations/[id]/route');
const accounts = () => import('@/app/api/admin/accounts/[id]/route');
const reset = () => import('@/app/api/admin/accounts/[id]/password-reset/route');
const db = async () => (await import('@/lib/db/client.server')).getDb();

function request(method: string, pathname: string, body?: unknown, origin = ORIGIN): Request {
  return new Request(`${ORIGIN}${pathname}`, { method, headers: { origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
}
const params = (id: string) => ({ params: Promise.resolve({ id }) });

async function newAccount(email: string, emailVerified = false): Promise<string> {
  const { authUsers } = await import('@/lib/db/schema.server');
  const id = crypto.randomUUID();
  await (await db()).insert(authUsers).values({ id, name: email, email, emailVerified });
  return id;
}
async function account(id: string) {
  const { authUsers } = await import('@/lib/db/schema.server');
  const [row] = await (await db()).select().from(authUsers).where(eq(authUsers.id, id));
  return row;
}

let bossId = '';
const asAdmin = () => (identity = { ok: true, identity: { userId: bossId, kind: 'account', isAdmin: true } });
const asMember = () => (identity = { ok: true, identity: { userId: crypto.randomUUID(), kind: 'account', isAdmin: false } });

describe('the admin page’s account routes', () => {
  it('refuse anyone but an admin, any other origin, and a body of the wrong shape, in words', async () => {
    bossId = await newAccount('boss@example.com', true);
    const someone = await newAccount('someone@example.com');
    asMember();
    const refusals = [
      await (await invitations()).POST(request('POST', '/api/admin/invitations', { email: 'x@example.com', role: 'member' })),
      await (await invitation()).DELETE(request('DELETE', `/api/admin/invitations/${someone}`), params(someone)),
      await (await accounts()).PATCH(request('PATCH', `/api/admin/accounts/${someone}`, { role: 'admin' }), params(someone)),
      await (await accounts()).DELETE(request('DELETE', `/api/admin/accounts/${someone}`), params(someone)),
      await (await reset()).POST(request('POST', `/api/admin/accounts/${someone}/password-reset`), params(someone)),
    ];
    for (const refused of refusals) expect([refused.status, (await refused.json()).error]).toEqual([403, 'Only this Runpad’s admins may do that.']);
    expect((await account(someone)).role).toBe('member');

    asAdmin();
    const crossSite = await (await accounts()).PATCH(request('PATCH', `/api/admin/accounts/${someone}`, { role: 'admin' }, 'http://evil.example'), params(someone));
    expect(crossSite.status).toBe(403);
    const badRole = await (await accounts()).PATCH(request('PATCH', `/api/admin/accounts/${someone}`, { role: 'owner' }), params(someone));
    expect(badRole.status).toBe(400);
    const badEmail = await (await invitations()).POST(request('POST', '/api/admin/invitations', { email: 'not an email', role: 'member' }));
    expect([badEmail.status, (await badEmail.json()).error]).toEqual([400, 'Invalid request at email: an email address is needed.']);
    expect((await account(someone)).role).toBe('member');
  });

  it('invite: a link shown to copy (no mail server), refused for an email that has an account; revoke once', async () => {
    asAdmin();
    const made = await (await invitations()).POST(request('POST', '/api/admin/invitations', { email: 'New@Example.com', role: 'member' }));
    expect(made.status).toBe(201);
    const body = (await made.json()) as { link: string; emailed: boolean | null; invitation: { id: string; email: string } };
    expect(body).toMatchObject({ emailed: null, invitation: { email: 'new@example.com' } });
    expect(body.link).toMatch(new RegExp(`^${ORIGIN}/sign-in\\?invitation=[A-Za-z0-9_-]{43}$`));
    const { listOpenInvitations } = await import('@/lib/db/queries/invitations.server');
    expect((await listOpenInvitations(await db())).map((i) => i.id)).toContain(body.invitation.id);

    const taken = await (await invitations()).POST(request('POST', '/api/admin/invitations', { email: 'someone@example.com', role: 'member' }));
    expect([taken.status, (await taken.json()).error]).toEqual([409, 'someone@example.com already has an account here: approve it or change its role in the list of accounts.']);

    expect((await (await invitation()).DELETE(request('DELETE', `/api/admin/invitations/${body.invitation.id}`), params(body.invitation.id))).status).toBe(200);
    expect((await (await invitation()).DELETE(request('DELETE', `/api/admin/invitations/${body.invitation.id}`), params(body.invitation.id))).status).toBe(404);
    expect((await listOpenInvitations(await db())).map((i) => i.id)).not.toContain(body.invitation.id);
  });

  it('approve and refuse pending sign-ups only; roles change except one’s own and the bootstrap admins’', async () => {
    asAdmin();
    const waiting = await newAccount('waiting@example.com');
    const unwanted = await newAccount('unwanted@example.com');
    const patch = async (id: string, body: unknown) => (await accounts()).PATCH(request('PATCH', `/api/admin/accounts/${id}`, body), params(id));

    expect((await patch(waiting, { approved: true })).status).toBe(200);
    expect((await account(waiting)).admittedAt).toBeInstanceOf(Date);
    const again = await patch(waiting, { approved: true });
    expect([again.status, (await again.json()).error]).toEqual([409, 'This account is not waiting for approval: reload the page.']);
    expect((await (await accounts()).DELETE(request('DELETE', `/api/admin/accounts/${waiting}`), params(waiting))).status).toBe(409);
    expect(await account(waiting)).toBeDefined();

    expect((await (await accounts()).DELETE(request('DELETE', `/api/admin/accounts/${unwanted}`), params(unwanted))).status).toBe(200);
    expect(await account(unwanted)).toBeUndefined();

    expect((await patch(waiting, { role: 'admin' })).status).toBe(200);
    expect((await account(waiting)).role).toBe('admin');
    const own = await patch(bossId, { role: 'member' });
    expect([own.status, (await own.json()).error]).toEqual([409, 'You cannot change your own role: ask another admin.']);
    identity = { ok: true, identity: { userId: waiting, kind: 'account', isAdmin: true } };
    const bootstrap = await patch(bossId, { role: 'member' });
    expect([bootstrap.status, (await bootstrap.json()).error]).toEqual([409, 'This person is an admin through RUNPAD_ADMIN_EMAILS: take their email off that list (and restart Runpad) to change their role.']);
    expect((await patch(crypto.randomUUID(), { role: 'admin' })).status).toBe(404);
  });

  it('a password-reset link for an account, shown to copy', async () => {
    asAdmin();
    const someone = await newAccount('reset-me@example.com');
    const made = await (await reset()).POST(request('POST', `/api/admin/accounts/${someone}/password-reset`), params(someone));
    expect(made.status).toBe(201);
    const body = (await made.json()) as { link: string; emailed: boolean | null };
    expect(body.emailed).toBeNull();
    expect(body.link).toMatch(new RegExp(`^${ORIGIN}/reset-password\\?token=[A-Za-z0-9_-]{32}$`));
    expect((await (await reset()).POST(request('POST', `/api/admin/accounts/${crypto.randomUUID()}/password-reset`), params(crypto.randomUUID()))).status).toBe(404);
  });
});
