/**
 * Accounts on better-auth (see docs/DECISIONS.md, "Accounts" and "Local accounts"): sign-in with
 * an email and a password (better-auth's own: hashing, reset links, its rate limits), with one
 * OpenID Connect provider (generic OAuth plugin, discovery, PKCE) and with passkeys (passkey plugin
 * on SimpleWebAuthn), sessions in auth_sessions through the Drizzle adapter. Mounted at /api/auth.
 *
 * Making an account (lib/auth/admission.server.ts): an invitation link's token, sent with the sign-up,
 * admits it with the invitation's role and vouches for its email; in invite mode an account nobody
 * admitted is kept, pending, and refused a session in words until an admin approves it.
 *
 * One instance per origin the app is reached at: the origin decides the links mailed, the OAuth
 * redirect URL, the WebAuthn relying party and the cookie names. It is the configured public
 * origin, required where a link leaves the request (a mail server, a provider); only without
 * either is it the request's own (lib/http/link-origin.server.ts). Cookies keep the guest cookie's rules: HttpOnly,
 * SameSite=Lax, and over HTTPS `__Host-` prefixed (Secure, Path=/, no Domain).
 *
 * Every sign-in rotates what the browser held (session fixation): better-auth makes a new
 * session with a new token, and the hook below ends the account session the browser sent with
 * the sign-in (a second sign-in, or a passkey after the provider, would otherwise leave the
 * earlier token valid); the guest this browser was is merged into the account
 * (lib/db/queries/merge-guest.server.ts), and the browser gets a new guest id for whenever it signs out.
 * A sign-in through the provider also keeps the account's groups in step with its groups claim
 * (RUNPAD_OIDC_GROUPS_CLAIM; lib/auth/claimed-groups.server.ts).
 *
 * The projects an email was invited to before it had an account become the account's at each
 * sign-in and when its email is verified (lib/access/project-invitations.server.ts): a new account
 * sees them at once.
 */
import 'server-only';
import { passkey } from '@better-auth/passkey';
import { eq } from 'drizzle-orm';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { genericOAuth } from 'better-auth/plugins';
import { getConfig } from '@/lib/config.server';
import { getDb, type Db } from '@/lib/db/client.server';
import { mergeGuestIntoAccount } from '@/lib/db/queries/merge-guest.server';
import { ensureUser, isBlocked } from '@/lib/db/queries/users.server';
import { authAccounts, authPasskeys, authSessions, authUsers, authVerifications } from '@/lib/db/schema.server';
import { CLIENT_ADDRESS_HEADER } from '@/lib/request/peer-address-header.server';
import { isSecureOrigin } from '@/lib/request/origin.server';
import { logger } from '@/lib/log/logger.server';
import { fingerprintKey } from '@/lib/log/fingerprint.server';
import { passwordResetMail, sendMail, verificationMail } from '@/lib/email/mailer.server';
import { PENDING_APPROVAL, signInRefusal } from './access.server';
import { admissionOnCreate } from './admission.server';
import { claimInvitationsOf } from '@/lib/access/project-invitations.server';
import { applyClaimedGroups, noteClaimedGroups } from './claimed-groups.server';
import { betterAuthLogger } from './auth-log.server';
import { accountCookiePrefix } from './account-cookie.server';
import { getAuthSecret } from './secret.server';
import { SESSION_MAX_AGE_S, sessionCookieName, signSession, verifySession } from './session.server';

export const OIDC_PROVIDER_ID = 'oidc';
/** An account session lasts this long, renewed once a day while it is used. */
const ACCOUNT_SESSION_S = 30 * 24 * 60 * 60;
/** A password-reset link someone asked for by mail works this long (an admin's: lib/auth/password-reset.server.ts). */
export const RESET_LINK_S = 60 * 60;

/** The OpenID Connect provider (discovery, PKCE), whose groups claim is noted for the after-hook below. */
function oidcPlugin(oidc: NonNullable<ReturnType<typeof getConfig>['access']['oidc']>) {
  return genericOAuth({
    config: [
      {
        providerId: OIDC_PROVIDER_ID,
        name: oidc.name,
        discoveryUrl: `${oidc.issuer}/.well-known/openid-configuration`,
        clientId: oidc.clientId,
        clientSecret: oidc.clientSecret,
        scopes: ['openid', 'email', 'profile'],
        pkce: true,
        // Signing out of Runpad does not sign the person out of their provider.
        disableProviderLogout: true,
        // The groups claim, noted for the hook below (nothing of the account changes here).
        mapProfileToUser: (profile: Record<string, unknown>) => {
          if (oidc.groupsClaim) noteClaimedGroups(profile, oidc.groupsClaim);
          return {};
        },
      },
    ],
  });
}

function buildAuth(db: Db, origin: string) {
  const config = getConfig();
  const secure = isSecureOrigin(origin);
  const oidc = config.access.oidc;
  const log = logger().child({ component: 'auth' });
  /** The projects waiting for this account's email (never in the way of a sign-in: a failure is logged, the next sign-in tries again). */
  const claimInvitations = async (user: { id: string; email: string; emailVerified: boolean }) => {
    try {
      const joined = await claimInvitationsOf(db, user);
      if (joined > 0) log.info({ account: user.id, projects: joined }, 'project invitations became memberships');
    } catch (error) {
      log.error({ err: error, account: user.id }, 'making project invitations memberships failed');
    }
  };
  return betterAuth({
    appName: 'Runpad',
    baseURL: origin,
    basePath: '/api/auth',
    secret: getAuthSecret(),
    trustedOrigins: [origin],
    telemetry: { enabled: false },
    logger: betterAuthLogger(log, fingerprintKey(getAuthSecret())),
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: authUsers, session: authSessions, account: authAccounts, verification: authVerifications, passkey: authPasskeys },
    }),
    session: { expiresIn: ACCOUNT_SESSION_S, updateAge: 24 * 60 * 60 },
    // better-auth's own limiter allows 3 sign-ins per 10 s per address, a rule written for passwords:
    // kept for passwords (sign-in, sign-up, reset: the library's rules). A provider or a passkey
    // proves who it is, and a team behind one address signs in together; the provider and our
    // per-address limits (lib/abuse) bound the rest. The first matching rule applies.
    rateLimit: { enabled: true, customRules: { '/sign-in/email': { window: 10, max: 3 }, '/sign-in/*': { window: 10, max: 30 } } },
    // A second provider login with the same verified email links to the account.
    account: { accountLinking: { enabled: true, trustedProviders: [OIDC_PROVIDER_ID] } },
    emailAndPassword: {
      enabled: config.access.passwordSignIn,
      minPasswordLength: 8,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: RESET_LINK_S,
      // "Forgot your password?" mails a link; without a mail server only an admin makes one (/admin).
      ...(config.email
        ? {
            sendResetPassword: async ({ user, url }: { user: { email: string }; url: string }) => {
              await sendMail(passwordResetMail(user.email, url, new Date(Date.now() + RESET_LINK_S * 1000)));
            },
          }
        : {}),
    },
    // With a mail server, a password sign-up is mailed a link that verifies its email (then
    // RUNPAD_ALLOWED_EMAILS and RUNPAD_ADMIN_EMAILS count for it); an invited one is verified already.
    ...(config.email
      ? {
          emailVerification: {
            sendOnSignUp: true,
            autoSignInAfterVerification: false,
            expiresIn: 24 * 60 * 60,
            sendVerificationEmail: async ({ user, url }: { user: { email: string; emailVerified: boolean }; url: string }) => {
              if (!user.emailVerified) await sendMail(verificationMail(user.email, url));
            },
          },
        }
      : {}),
    // Written by Runpad only (the admin page, invitations), never from a sign-up's body.
    user: {
      additionalFields: {
        role: { type: 'string', required: false, defaultValue: 'member', input: false },
        admittedAt: { type: 'date', required: false, input: false },
      },
    },
    advanced: {
      // better-auth turns its origin and callback-URL checks off under NODE_ENV=test; they run
      // everywhere, so what tests exercise is what production refuses.
      disableOriginCheck: false,
      database: { generateId: () => crypto.randomUUID() },
      useSecureCookies: false,
      cookiePrefix: accountCookiePrefix(secure),
      defaultCookieAttributes: { secure, httpOnly: true, sameSite: 'lax', path: '/' },
      // Set by the auth route from the one rule of lib/request/client-address.server.ts (a trusted proxy's last
      // X-Forwarded-For entry, else the TCP peer), so this limiter counts the same addresses as ours.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    plugins: [
      passkey({ rpID: new URL(origin).hostname, rpName: 'Runpad', origin }),
      ...(oidc ? [oidcPlugin(oidc)] : []),
    ],
    databaseHooks: {
      user: {
        create: {
          before: async (user, context) => {
            const admission = await admissionOnCreate(db, config, user, context);
            if (!admission.ok) throw new APIError('FORBIDDEN', { code: 'INVITATION_INVALID', message: admission.refusal });
            return { data: { ...user, ...admission.data } };
          },
          after: async (user) => ensureUser(db, user.id),
        },
        // An email just verified: the projects it was invited to are the account's now.
        update: { after: async (user) => void (user.emailVerified ? await claimInvitations(user) : undefined) },
      },
      session: {
        create: {
          before: async (session) => {
            const [user] = await db.select().from(authUsers).where(eq(authUsers.id, session.userId));
            const refusal = user ? signInRefusal(user) : 'This account no longer exists.';
            if (refusal) throw new APIError('FORBIDDEN', { code: refusal === PENDING_APPROVAL ? 'PENDING_APPROVAL' : 'NOT_INVITED', message: refusal });
            if (await isBlocked(db, session.userId)) throw new APIError('FORBIDDEN', { code: 'BLOCKED', message: 'This account is blocked on this Runpad.' });
          },
          // Each sign-in (a new account's first one too): the projects its email was invited to are its own now.
          after: async (session) => {
            const [user] = await db.select().from(authUsers).where(eq(authUsers.id, session.userId));
            if (user) await claimInvitations(user);
          },
        },
      },
    },
    hooks: {
      after: createAuthMiddleware(async (ctx) => {
        const created = ctx.context.newSession;
        if (!created) return;
        if (oidc?.groupsClaim && ctx.path.includes('callback')) {
          try {
            await applyClaimedGroups(db, created.user, log);
          } catch (error) {
            // Groups the provider no longer names must not outlive the sign-in: no session, in words.
            log.error({ err: error, account: created.user.id }, 'keeping the groups in step with the provider failed');
            await ctx.context.internalAdapter.deleteSession(created.session.token);
            throw new APIError('SERVICE_UNAVAILABLE', { message: 'Your groups could not be brought up to date: sign in again in a moment.' });
          }
        }
        const previous = await ctx.getSignedCookie(ctx.context.authCookies.sessionToken.name, ctx.context.secret);
        if (previous && previous !== created.session.token) await ctx.context.internalAdapter.deleteSession(previous);
        const guestCookie = sessionCookieName(secure);
        const value = ctx.getCookie(guestCookie);
        const guestId = value ? verifySession(value, getAuthSecret()) : null;
        if (guestId) {
          try {
            const moved = await mergeGuestIntoAccount(db, guestId, created.user.id);
            if (moved) log.info({ account: created.user.id, guest: guestId, ...moved }, 'guest merged into account');
          } catch (error) {
            // The guest keeps its cookie (and its work); the next sign-in tries again.
            log.error({ err: error, account: created.user.id }, 'merging the guest into the account failed');
            return;
          }
        }
        ctx.setCookie(guestCookie, signSession(crypto.randomUUID(), getAuthSecret()), { path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge: SESSION_MAX_AGE_S });
      }),
    },
  });
}

export type Auth = ReturnType<typeof buildAuth>;

const globalForAuth = globalThis as unknown as { runpadAuth?: Map<string, Auth> };
/** Distinct origins remembered; requestOrigin validates hosts, this bounds what a Host header can cost. */
const MAX_ORIGINS = 16;

/**
 * The auth instance for the origin links are written for (lib/http/link-origin.server.ts):
 * with RUNPAD_PUBLIC_ORIGIN set, always that one, whatever origin the caller names, so no reset,
 * verification or provider link can carry a host a request wrote.
 */
export async function getAuth(requested: string): Promise<Auth> {
  const origin = getConfig().publicOrigin ?? requested;
  const db = await getDb();
  globalForAuth.runpadAuth ??= new Map();
  const known = globalForAuth.runpadAuth.get(origin);
  if (known) return known;
  if (globalForAuth.runpadAuth.size >= MAX_ORIGINS) globalForAuth.runpadAuth.clear();
  const auth = buildAuth(db, origin);
  globalForAuth.runpadAuth.set(origin, auth);
  return auth;
}
