/**
 * Every absolute URL the server writes comes from the one configured public origin
 * (RUNPAD_PUBLIC_ORIGIN), never from a request's Host, X-Forwarded-Host, X-Forwarded-Proto or
 * Origin: the links mailed (password reset, email verification, invitations, an admin's reset
 * link), the OpenID Connect redirect and the passkey relying party. Called as Next calls the
 * routes, on an embedded database, a mail server (lib/testing/smtp-sink.ts) and a real OpenID
 * Connect provider, behind a proxy the operator trusts (RUNPAD_TRUST_PROXY=1), with generated
 * forged hosts. Without the public origin, a mail server or a provider refuses to start.
 */
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '@/lib/errors.server';
import { migratedDataDir } from '@/lib/testing/migrated-data-dir';
import { stubEnvs } from '@/lib/testing/stub-env';
import { startSmtpSink, type SmtpSink } from '@/lib/testing/smtp-sink';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcProvider, type OidcProvider } from '@/e2e/fixtures/oidc-provider';

const PUBLIC = 'https://runpad.example';
type Who = { userId: string; kind: 'account'; isAdmin: boolean };
let identity: { ok: true; identity: Who } | { ok: false; refusal: AppError } = { ok: false, refusal: new AppError('session:sign_in_required') };
vi.mock('@/lib/auth/current-user.server', () => ({ sessionGuestId: async () => null, resolveIdentity: async () => identity }));

/** Hosts an attacker writes: other names, ports, look-alikes, IPs, letters of other scripts (punycode), case. */
function forgedHosts(): string[] {
  const labels = ['evil', 'runpad', 'xn--80ak6aa92e', 'a'.repeat(40), 'EVIL', 'runpad-example'];
  const suffixes = ['.example', '.example:8443', '.runpad.example.attacker.test', '.example:1'];
  const hosts = labels.flatMap((label, i) => [`${label}${suffixes[i % suffixes.length]}`]);
  return [...hosts, '127.0.0.2:9', '[::1]:3000', 'runpad.example:444', 'localhost'];
}

/** The ways a request names a host: its Host, a proxy's X-Forwarded-Host and -Proto, its Origin. */
function forgeries(host: string): Array<Record<string, string>> {
  return [{ host }, { host: 'runpad.example', 'x-forwarded-host': host, 'x-forwarded-proto': 'http' }, { host, 'x-forwarded-host': host, origin: `http://${host}` }];
}

/**
 * The forgery the `i`th host signs up with: each host and each way of naming it reach the sign-up
 * route (a sign-up hashes a password, ~0.1 s of CPU: one per host, not one per pair); every pair
 * reaches the same verification mail through /send-verification-email, which mails as the sign-up does.
 */
const signUpForgery = (i: number, host: string) => forgeries(host)[i % forgeries(host).length];

/** Every absolute URL in a text. */
const urlsIn = (text: string) => text.match(/https?:\/\/[^\s"'<>]+/g) ?? [];

let smtp: SmtpSink;
let oidc: OidcProvider;
let address = 0;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  oidc = await startOidcProvider(await freePort(), [PUBLIC]);
  stubEnvs({
    RUNPAD_DATA_DIR: migratedDataDir('runpad-public-origin-'),
    DATABASE_URL: '',
    AUTH_SECRET: 'public-origin-secret-public-origin-0123',
    RUNPAD_ACCESS: 'accounts',
    RUNPAD_ADMIN_EMAILS: 'boss@example.com',
    RUNPAD_ALLOWED_EMAILS: '',
    RUNPAD_PASSWORD_SIGN_IN: '1',
    RUNPAD_OIDC_ISSUER: '',
    RUNPAD_OIDC_CLIENT_ID: '',
    RUNPAD_SMTP_URL: smtp.url,
    RUNPAD_EMAIL_FROM: 'Runpad <runpad@example.com>',
    RUNPAD_PUBLIC_ORIGIN: '',
    RUNPAD_TRUST_PROXY: '1',
    RUNPAD_LOG_LEVEL: 'silent',
  });
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await smtp.close();
  await oidc.stop();
});

/** A request to a route, each from another client address (the trusted proxy's X-Forwarded-For; better-auth limits sign-ups per address). */
function request(method: string, pathname: string, headers: Record<string, string>, body?: unknown): Request {
  address += 1;
  return new Request(`http://127.0.0.1:3000${pathname}`, {
    method,
    headers: { 'x-forwarded-for': `10.1.${Math.floor(address / 250)}.${address % 250}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
const authRoute = async () => (await import('@/app/api/auth/[...all]/route')) as { GET: (r: Request, c: unknown) => Promise<Response>; POST: (r: Request, c: unknown) => Promise<Response> };
const authParams = (pathname: string) => ({ params: Promise.resolve({ all: pathname.split('/').filter(Boolean) }) });
async function auth(method: 'GET' | 'POST', pathname: string, headers: Record<string, string>, body?: unknown): Promise<Response> {
  return (await authRoute())[method](request(method, `/api/auth${pathname}`, headers, body), authParams(pathname));
}

async function db() {
  return (await import('@/lib/db/client.server')).getDb();
}
async function accountId(email: string): Promise<string> {
  const { authUsers } = await import('@/lib/db/schema.server');
  const [row] = await (await db()).select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.email, email));
  return row!.id;
}

describe('with a mail server and no RUNPAD_PUBLIC_ORIGIN', () => {
  it('start and doctor refuse, naming RUNPAD_PUBLIC_ORIGIN, and no mail names a forged host', async () => {
    vi.resetModules();
    for (const [i, host] of forgedHosts().entries()) {
      const email = `someone-${i}@example.com`;
      await auth('POST', '/sign-up/email', signUpForgery(i, host), { name: 'x', email, password: 'a long password' });
      for (const headers of forgeries(host)) {
        await auth('POST', '/request-password-reset', headers, { email: 'boss@example.com', redirectTo: '/reset-password' });
        await auth('POST', '/send-verification-email', headers, { email, callbackURL: '/' });
      }
    }
    const named = smtp.received.filter((mail) => forgedHosts().some((host) => mail.text.toLowerCase().includes(`//${host.toLowerCase()}`)));
    expect(named.map((mail) => urlsIn(mail.text))).toEqual([]);
    const { configurationProblems } = await import('@/lib/config.server');
    expect(configurationProblems()).toEqual([expect.objectContaining({ variable: 'RUNPAD_PUBLIC_ORIGIN', fix: expect.stringContaining('RUNPAD_PUBLIC_ORIGIN=https://') })]);
  });

  it('a provider without RUNPAD_PUBLIC_ORIGIN refuses too; neither mail nor a provider needs nothing', async () => {
    stubEnvs({
      RUNPAD_SMTP_URL: '',
      RUNPAD_OIDC_ISSUER: oidc.issuer,
      RUNPAD_OIDC_CLIENT_ID: OIDC_CLIENT_ID,
    });
    vi.resetModules();
    expect((await import('@/lib/config.server')).configurationProblems()).toEqual([expect.objectContaining({ variable: 'RUNPAD_PUBLIC_ORIGIN', problem: expect.stringContaining('RUNPAD_OIDC_ISSUER') })]);
    vi.stubEnv('RUNPAD_OIDC_ISSUER', '');
    vi.stubEnv('RUNPAD_OIDC_CLIENT_ID', '');
    vi.resetModules();
    expect((await import('@/lib/config.server')).configurationProblems()).toEqual([]);
  });
});

describe('with RUNPAD_PUBLIC_ORIGIN behind a trusted proxy', () => {
  beforeAll(async () => {
    stubEnvs({
      RUNPAD_SMTP_URL: smtp.url,
      RUNPAD_OIDC_ISSUER: oidc.issuer,
      RUNPAD_OIDC_CLIENT_ID: OIDC_CLIENT_ID,
      RUNPAD_OIDC_CLIENT_SECRET: OIDC_CLIENT_SECRET,
      RUNPAD_PUBLIC_ORIGIN: PUBLIC,
    });
    vi.resetModules();
    (globalThis as { runpadAuth?: unknown }).runpadAuth = undefined;
    smtp.received.length = 0;
  });

  it('every mail kind and every auth flow that writes an absolute URL names the public origin only', async () => {
    const written: string[] = [];
    // The first admin, signed up from the real origin (verified by RUNPAD_ADMIN_EMAILS).
    const boss = await auth('POST', '/sign-up/email', { origin: PUBLIC }, { name: 'boss', email: 'boss@example.com', password: 'a long password' });
    expect(boss.status).toBe(200);
    const bossCookie = boss.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const bossId = await accountId('boss@example.com');
    expect((await auth('POST', '/sign-up/email', { origin: PUBLIC }, { name: 'target', email: 'target@example.com', password: 'a long password' })).status).toBe(200);
    const target = await accountId('target@example.com');
    identity = { ok: true, identity: { userId: bossId, kind: 'account', isAdmin: true } };
    const invitations = await import('@/app/api/admin/invitations/route');
    const reset = await import('@/app/api/admin/accounts/[id]/password-reset/route');

    for (const [i, host] of forgedHosts().entries()) {
      // Mailed by better-auth: the email verification, at the sign-up and asked again.
      await auth('POST', '/sign-up/email', signUpForgery(i, host), { name: 'x', email: `new-${i}@example.com`, password: 'a long password', callbackURL: '/' });
      for (const [j, headers] of forgeries(host).entries()) {
        const n = `${i}-${j}`;
        // Mailed by better-auth: the password reset, and the verification asked again.
        await auth('POST', '/request-password-reset', headers, { email: 'boss@example.com', redirectTo: '/reset-password' });
        await auth('POST', '/send-verification-email', headers, { email: `new-${i}@example.com`, callbackURL: '/' });
        // Mailed by Runpad: an invitation, an admin's reset link (both also answered to the admin).
        const invited = await invitations.POST(request('POST', '/api/admin/invitations', headers, { email: `invited-${n}@example.com`, role: 'member' }));
        written.push(await invited.text());
        const resetLink = await reset.POST(request('POST', `/api/admin/accounts/${target}/password-reset`, headers), { params: Promise.resolve({ id: target }) });
        written.push(await resetLink.text());
        // The provider's redirect (its redirect_uri is the callback the provider sends the code to).
        const redirect = await auth('POST', '/sign-in/social', headers, { provider: 'oidc', callbackURL: '/' });
        const redirectUrl = ((await redirect.json().catch(() => ({}))) as { url?: string }).url;
        if (redirectUrl) written.push(new URL(redirectUrl).searchParams.get('redirect_uri') ?? '');
        written.push(redirect.headers.get('location') ?? '');
        // The passkey relying party, for signing in and for adding one to the signed-in account.
        const authenticate = await auth('GET', '/passkey/generate-authenticate-options', headers);
        if (authenticate.ok) written.push(`rp ${((await authenticate.json()) as { rpId?: string }).rpId}`);
        const register = await auth('GET', '/passkey/generate-register-options', { ...headers, cookie: bossCookie });
        if (register.ok) written.push(`rp ${((await register.json()) as { rp?: { id?: string } }).rp?.id}`);
      }
    }

    await vi.waitFor(() => expect(smtp.received.filter((m) => m.text.includes('verify-email')).length).toBeGreaterThanOrEqual(forgedHosts().length));
    const mailed = smtp.received.flatMap((mail) => urlsIn(mail.text));
    // Each kind of mail was sent, and each URL in any of them starts at the public origin.
    for (const kind of ['/api/auth/reset-password/', '/api/auth/verify-email', '/sign-in?invitation=', '/reset-password?token=']) {
      expect(mailed.some((url) => url.includes(kind))).toBe(true);
    }
    expect(mailed.filter((url) => !url.startsWith(`${PUBLIC}/`))).toEqual([]);
    const answered = written.flatMap(urlsIn);
    expect(answered.some((url) => url.startsWith(`${PUBLIC}/api/auth/callback/oidc`))).toBe(true);
    expect(answered.filter((url) => !url.startsWith(`${PUBLIC}/`) && !url.startsWith(`${oidc.issuer}/`))).toEqual([]);
    const relyingParties = written.filter((line) => line.startsWith('rp '));
    expect(relyingParties.length).toBeGreaterThan(0);
    expect(new Set(relyingParties)).toEqual(new Set(['rp runpad.example']));
    const everything = [...smtp.received.map((m) => m.text), ...written].join('\n').toLowerCase();
    for (const host of forgedHosts().filter((h) => h !== 'runpad.example:444')) expect(everything).not.toContain(`//${host.toLowerCase()}`);
    expect(everything).not.toContain('runpad.example:444');
  });
});
