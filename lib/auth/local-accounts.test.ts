/**
 * Local accounts through better-auth's own endpoints (lib/auth/auth.server.ts), on an embedded database
 * and a mail server started here (smtp-server): an invitation mailed and used once, a sign-up in
 * invite mode kept pending until approved (or until a mailed link verifies an email the list
 * allows), the first admin, and password-reset links (an admin's, and one asked for by mail) that
 * set a password once.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migratedDataDir } from '@/lib/testing/migrated-data-dir';
import { stubEnvs } from '@/lib/testing/stub-env';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '@/lib/testing/smtp-sink';

const ORIGIN = 'http://localhost:3999';
let received: ReceivedMail[] = [];
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
  received = smtp.received;
  stubEnvs({
    RUNPAD_DATA_DIR: migratedDataDir('runpad-local-accounts-'),
    DATABASE_URL: '',
    AUTH_SECRET: 'local-accounts-secret-local-accounts-0123',
    RUNPAD_ACCESS: 'invite',
    RUNPAD_ADMIN_EMAILS: 'boss@example.com',
    RUNPAD_ALLOWED_EMAILS: '@team.example',
    RUNPAD_OIDC_ISSUER: '',
    RUNPAD_PASSWORD_SIGN_IN: '',
    RUNPAD_SMTP_URL: smtp.url,
    RUNPAD_PUBLIC_ORIGIN: ORIGIN,
    RUNPAD_EMAIL_FROM: 'Runpad <runpad@example.com>',
    RUNPAD_LOG_LEVEL: 'silent',
  });
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await smtp.close();
});

let address = 0;
/** A POST to better-auth, from its own origin, each from another client address (its sign-in limiter counts per address). */
async function post(pathname: string, body: unknown, cookie?: string): Promise<{ status: number; json: Record<string, unknown>; cookie: string | null }> {
  const { getAuth } = await import('./auth.server');
  address += 1;
  const response = await (await getAuth(ORIGIN)).handler(
    new Request(`${ORIGIN}/api/auth${pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-runpad-client-address': `10.0.${Math.floor(address / 250)}.${address % 250}`, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    }),
  );
  const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('runpad.session_token='));
  return { status: response.status, json: (await response.json().catch(() => ({}))) as Record<string, unknown>, cookie: setCookie ? setCookie.split(';')[0] : null };
}

const signUp = (email: string, password: string, extra: Record<string, unknown> = {}) => post('/sign-up/email', { name: email.split('@')[0], email, password, ...extra });
const signIn = (email: string, password: string) => post('/sign-in/email', { email, password });

async function db() {
  return (await import('@/lib/db/client.server')).getDb();
}

async function account(email: string) {
  const { authUsers } = await import('@/lib/db/schema.server');
  const [row] = await (await db()).select().from(authUsers).where(eq(authUsers.email, email));
  return row;
}

describe('local accounts on better-auth', () => {
  it('the first admin signs up with a password; others are pending in invite mode until approved', async () => {
    const boss = await signUp('boss@example.com', 'correct horse battery');
    expect(boss.status).toBe(200);
    expect(boss.cookie).toBeTruthy();
    expect(await account('boss@example.com')).toMatchObject({ emailVerified: true });

    // A second account claiming a bootstrap email is not verified by it: pending like anyone.
    const stranger = await signUp('stranger@example.com', 'a long password');
    expect(stranger.status).toBe(403);
    expect(stranger.json.message).toBe('Your account is waiting for an admin of this Runpad to approve it. You can sign in once they have.');
    expect(await account('stranger@example.com')).toMatchObject({ admittedAt: null, emailVerified: false });
    expect((await signIn('stranger@example.com', 'a long password')).status).toBe(403);

    const { admitAccount } = await import('@/lib/db/queries/invitations.server');
    expect(await admitAccount(await db(), (await account('stranger@example.com')).id)).toBe(true);
    const admitted = await signIn('stranger@example.com', 'a long password');
    expect(admitted.status).toBe(200);
    expect(admitted.cookie).toBeTruthy();
    expect((await signIn('stranger@example.com', 'the wrong password')).status).toBe(401);
  });

  it('an invitation is mailed; its link makes an admitted account with its role, once, for its email only', async () => {
    const { createInvitation } = await import('@/lib/db/queries/invitations.server');
    const { invitationMail, sendMail } = await import('@/lib/email/mailer.server');
    const invitation = await createInvitation(await db(), { email: 'ana@example.com', role: 'admin', createdBy: null });
    const link = `${ORIGIN}/sign-in?invitation=${invitation.token}`;
    expect(await sendMail(invitationMail('ana@example.com', link, invitation.expiresAt))).toBe(true);
    const mail = received.find((m) => m.to === 'ana@example.com')!;
    expect(mail.text).toContain('You are invited to Runpad.');
    const token = new URL(/http:\/\/localhost:3999\/sign-in\?invitation=[A-Za-z0-9_-]+/.exec(mail.text)![0]).searchParams.get('invitation');
    expect(token).toBe(invitation.token);

    expect((await signUp('mallory@example.com', 'a long password', { invitation: token })).json.message).toMatch(/^This invitation link does not work any more/);
    const ana = await signUp('ana@example.com', 'a long password', { invitation: token });
    expect(ana.status).toBe(200);
    expect(await account('ana@example.com')).toMatchObject({ role: 'admin', emailVerified: true });
    expect((await account('ana@example.com')).admittedAt).toBeInstanceOf(Date);
    const again = await signUp('ana2@example.com', 'a long password', { invitation: token });
    expect(again.status).toBe(403);
    // A sign-up cannot set its own role or admission.
    expect((await signUp('sneaky@example.com', 'a long password', { admittedAt: new Date().toISOString() })).status).toBe(400);
    expect(await account('sneaky@example.com')).toBeUndefined();
    expect((await signUp('sneaky@example.com', 'a long password', { role: 'admin' })).status).toBe(403);
    expect(await account('sneaky@example.com')).toMatchObject({ role: 'member', admittedAt: null });
  });

  it('an email with an open invitation cannot be squatted: a sign-up without its token is refused, whatever the spelling', async () => {
    const { createInvitation } = await import('@/lib/db/queries/invitations.server');
    const { approveSignUp } = await import('./admin-accounts.server');
    const { authUsers } = await import('@/lib/db/schema.server');
    // Emails an invitation may name; the squatter writes each as differently as an email allows.
    const invited = ["grace@example.com", "o'hara+team@example.com", 'δοκιμή@example.com', 'x.y_z-1@sub.team.example'];
    const spellings = (email: string) => [email, email.toUpperCase(), ` ${email}`, email.replace(/^./, (c) => c.toUpperCase())];
    for (const email of invited) {
      const invitation = await createInvitation(await db(), { email, role: 'admin', createdBy: null });
      for (const spelling of spellings(email)) {
        const squat = await signUp(spelling, 'the squatter’s password', { callbackURL: '/' });
        if (squat.status === 400) continue; // not an email better-auth takes at all
        expect(squat.status).toBe(403);
        expect(squat.json.message).toBe('An invitation is waiting for this email: make the account with the link it came with.');
        expect(await account(email)).toBeUndefined();
      }
      if (email.startsWith('δ')) continue;
      const owner = await signUp(email, 'the invited password', { invitation: invitation.token });
      expect(owner.status).toBe(200);
      expect(await account(email)).toMatchObject({ role: 'admin', emailVerified: true });
    }
    // An account made before this rule (or by any other way) that collides with an open invitation is never approved.
    const squatted = 'squatted@example.com';
    const id = crypto.randomUUID();
    await (await db()).insert(authUsers).values({ id, name: 'squatter', email: squatted, emailVerified: false });
    await createInvitation(await db(), { email: squatted, role: 'member', createdBy: null });
    await expect(approveSignUp(await db(), { adminId: (await account('boss@example.com')).id, id })).rejects.toMatchObject({ code: 'account:invitation_open' });
    expect((await account(squatted)).admittedAt).toBeNull();
  });

  it("an admin's reset link sets a new password once and signs the account out everywhere", async () => {
    const { getAuth } = await import('./auth.server');
    const { createPasswordResetLink } = await import('./password-reset.server');
    const before = await signIn('stranger@example.com', 'a long password');
    const { link } = await createPasswordResetLink(await getAuth(ORIGIN), ORIGIN, (await account('stranger@example.com')).id);
    const token = new URL(link).searchParams.get('token');
    expect(new URL(link).pathname).toBe('/reset-password');
    expect((await post('/reset-password', { token, newPassword: 'a brand new password' })).status).toBe(200);
    expect((await post('/reset-password', { token, newPassword: 'yet another password' })).status).toBe(400);
    expect((await signIn('stranger@example.com', 'a long password')).status).toBe(401);
    expect((await signIn('stranger@example.com', 'a brand new password')).status).toBe(200);
    const { authSessions } = await import('@/lib/db/schema.server');
    const tokens = (await (await db()).select({ token: authSessions.token }).from(authSessions)).map((s) => s.token);
    expect(tokens).not.toContain(decodeURIComponent(before.cookie!.split('=')[1]).split('.')[0]);
  });

  it('"forgot password" mails a link that sets the password', async () => {
    const asked = await post('/request-password-reset', { email: 'ana@example.com', redirectTo: '/reset-password' });
    expect(asked.status).toBe(200);
    await vi.waitFor(() => expect(received.some((m) => m.to === 'ana@example.com' && m.text.includes('/api/auth/reset-password/'))).toBe(true));
    const mail = received.find((m) => m.to === 'ana@example.com' && m.text.includes('/api/auth/reset-password/'))!;
    const token = /\/api\/auth\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)![1];
    expect((await post('/reset-password', { token, newPassword: 'mailed new password' })).status).toBe(200);
    expect((await signIn('ana@example.com', 'mailed new password')).status).toBe(200);
  });

  it('a sign-up on the allowed list is let in once the mailed link verifies its email; verified sign-ups get no such mail', async () => {
    expect(received.some((m) => (m.to === 'boss@example.com' || m.to === 'ana@example.com') && m.text.includes('verify-email'))).toBe(false);
    const member = await signUp('new@team.example', 'a long password', { callbackURL: '/sign-in?verified=1' });
    expect(member.status).toBe(403);
    await vi.waitFor(() => expect(received.some((m) => m.to === 'new@team.example')).toBe(true));
    const mail = received.find((m) => m.to === 'new@team.example')!;
    expect(mail.text).toContain('Confirm your email for Runpad');
    const link = /http:\/\/localhost:3999\/api\/auth\/verify-email\?\S+/.exec(mail.text)![0];
    const { getAuth } = await import('./auth.server');
    const verified = await (await getAuth(ORIGIN)).handler(new Request(link, { headers: { 'x-runpad-client-address': '10.9.9.9' } }));
    expect(verified.status).toBe(302);
    expect(verified.headers.get('location')).toBe('/sign-in?verified=1');
    expect(await account('new@team.example')).toMatchObject({ emailVerified: true, admittedAt: null });
    expect((await signIn('new@team.example', 'a long password')).status).toBe(200);
  });
});
