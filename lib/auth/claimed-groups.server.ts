/**
 * Groups kept in step with the OpenID Connect provider (RUNPAD_OIDC_GROUPS_CLAIM): at each sign-in
 * through it, the claim's values (read from the ID token's or userinfo's claims, as better-auth
 * hands them to `mapProfileToUser`) are noted by the account's email, and once the sign-in made a
 * session, the account's claimed memberships become exactly those groups
 * (lib/db/queries/groups.server.ts, `syncClaimedGroups`). Both steps run in the same request, on the
 * same instance. The log holds counts, never a group's name (a provider's words).
 */
import 'server-only';
import type { Logger } from 'pino';
import { claimedGroupNames } from '@/lib/access/groups.server';
import type { Db } from '@/lib/db/client.server';
import { syncClaimedGroups } from '@/lib/db/queries/groups.server';

type Claimed = { names: string[]; ignored: number };
const pending = new Map<string, Claimed>();
/** Sign-ins under way at once that this instance remembers (the oldest is forgotten first). */
const MAX_PENDING = 1_000;

const key = (email: string) => email.trim().toLowerCase();

/** Notes the groups the provider's claims name for this email (called with the claims, before the account is known). */
export function noteClaimedGroups(profile: Record<string, unknown>, claim: string): void {
  if (typeof profile.email !== 'string') return;
  if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value!);
  pending.set(key(profile.email), claimedGroupNames(profile, claim));
}

/** Puts the account in exactly the groups its sign-in's claim named (nothing when this sign-in noted none). */
export async function applyClaimedGroups(db: Db, user: { id: string; email: string }, log: Logger): Promise<void> {
  const claimed = pending.get(key(user.email));
  if (!claimed) return;
  pending.delete(key(user.email));
  const { added, removed } = await syncClaimedGroups(db, user.id, claimed.names);
  log.info({ account: user.id, groups: claimed.names.length, added, removed, ignored: claimed.ignored }, 'groups kept in step with the provider’s claim');
}
