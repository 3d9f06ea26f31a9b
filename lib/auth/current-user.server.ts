/**
 * Who is asking, decided in one place for every route and page:
 * 1. a signed-in account (better-auth's session cookie, checked against auth_sessions);
 * 2. else, when RUNPAD_ACCESS is 'open', the guest of the signed guest cookie proxy.ts issues;
 *    a guest's row is made on its first use, and starting a guest counts against the client
 *    address (lib/abuse/app-rate-limits.server.ts), so minting cookies does not mint fresh limits;
 * 3. else no one: sign in first.
 * A blocked person (the admin page) is refused everything, in words.
 * Refusals are AppErrors (returned: no one is a normal outcome); so is the one failure, a person's
 * row the database does not keep (thrown, `server:internal`).
 */
import 'server-only';
import { cookies, headers } from 'next/headers';
import { admitNewGuest, limitMessage } from '@/lib/abuse/app-rate-limits.server';
import { getConfig } from '@/lib/config.server';
import { AppError } from '@/lib/errors.server';
import { getDb } from '@/lib/db/client.server';
import { ensureUser, getPerson, insertGuest, type Person } from '@/lib/db/queries/users.server';
import { clientAddress } from '@/lib/request/client-address.server';
import { isSecureOrigin, requestOrigin } from '@/lib/request/origin.server';
import { isAdmin, signInRefusal } from './access.server';
import { accountCookieName } from './account-cookie.server';
import { getAuth } from './auth.server';
import { sessionCookieName, verifySession } from './session.server';
import { getAuthSecret } from './secret.server';

export type Identity = {
  userId: string;
  kind: 'guest' | 'account';
  email: string | null;
  name: string | null;
  isAdmin: boolean;
  /** The account session's id (for "this device" on the sessions page). */
  sessionId: string | null;
  person: Person;
  address: string;
};

/**
 * No one (yet) is a normal outcome here, not a failure: a page shows sign-in or the refusal's words.
 * The refusal is the AppError an API route throws for it (lib/http/session.server.ts, requireUser).
 */
export type IdentityResult = { ok: true; identity: Identity } | { ok: false; refusal: AppError };

/** The verified guest id, without touching the database (for logs). */
export async function sessionGuestId(): Promise<string | null> {
  const config = getConfig();
  const origin = requestOrigin(await headers(), config);
  const value = (await cookies()).get(sessionCookieName(isSecureOrigin(origin)))?.value;
  return value ? verifySession(value, getAuthSecret()) : null;
}

export async function resolveIdentity(): Promise<IdentityResult> {
  const config = getConfig();
  const requestHeaders = await headers();
  const jar = await cookies();
  const origin = requestOrigin(requestHeaders, config);
  const secure = isSecureOrigin(origin);
  const address = clientAddress(requestHeaders, config);
  const db = await getDb();

  if (origin && jar.has(accountCookieName(secure))) {
    const session = await (await getAuth(origin)).api.getSession({ headers: requestHeaders });
    if (session) {
      const refusal = signInRefusal(session.user);
      if (refusal) return refused(new AppError('access:not_invited', { message: refusal, reason: 'not invited' }));
      // The row is made with the account (lib/auth/auth.server.ts); this covers one deleted meanwhile.
      let person = await getPerson(db, session.user.id);
      if (!person) {
        await ensureUser(db, session.user.id);
        person = await getPerson(db, session.user.id);
        if (!person) throw rowMissing('account');
      }
      if (person.blockedAt) return blocked();
      return { ok: true, identity: { userId: person.id, kind: 'account', email: session.user.email, name: session.user.name, isAdmin: isAdmin(session.user), sessionId: session.session.id, person, address } };
    }
  }

  if (config.access.mode !== 'open') return refused(new AppError('session:sign_in_required', { reason: 'sign-in required' }));
  const value = jar.get(sessionCookieName(secure))?.value;
  const guestId = value ? verifySession(value, getAuthSecret()) : null;
  if (!guestId) return refused(new AppError('session:missing', { reason: 'no session cookie' }));
  let person = await getPerson(db, guestId);
  if (!person) {
    const admitted = await admitNewGuest(address);
    if (!admitted.ok) {
      const wait = admitted.retryAfterSeconds;
      return refused(new AppError('rate_limit:exceeded', { message: limitMessage(admitted), reason: 'rate limit guests-per-address', headers: { 'retry-after': String(wait) }, details: { retryAfterSeconds: wait } }));
    }
    await insertGuest(db, guestId);
    person = await getPerson(db, guestId);
    if (!person) throw rowMissing('guest');
  }
  if (person.blockedAt) return blocked();
  return { ok: true, identity: { userId: guestId, kind: 'guest', email: null, name: null, isAdmin: false, sessionId: null, person, address } };
}

function refused(refusal: AppError): IdentityResult {
  return { ok: false, refusal };
}

/** The person's row was written and is still not there: the database's fault, not the request's. */
function rowMissing(kind: 'account' | 'guest'): AppError {
  return new AppError('server:internal', { reason: `${kind} row missing after it was written` });
}

function blocked(): IdentityResult {
  return refused(new AppError('access:blocked', { reason: 'blocked' }));
}

/** The current person's id, or null when there is none (pages show sign-in or not-found). */
export async function currentUserId(): Promise<string | null> {
  const result = await resolveIdentity();
  return result.ok ? result.identity.userId : null;
}
