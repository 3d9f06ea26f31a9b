/**
 * What the groups' routes and the sign-in do once the asker is known: a group's name checked, the
 * accounts a list of emails names (every one, or the refusal naming the others), and the groups an
 * OpenID Connect provider's claim names read from its claims.
 */
import 'server-only';
import { z } from 'zod';
import type { Db } from '@/lib/db/client.server';
import { accountByEmail } from '@/lib/db/queries/projects.server';
import { AppError } from '@/lib/errors.server';

/** A group's name: one line of any script and quoting, no control characters, at most 200 characters. */
export const groupNameSchema = z
  .string()
  .trim()
  .min(1, 'a group needs a name')
  .max(200)
  .regex(/^[^\p{Cc}]+$/u, 'a group’s name is one line, without control characters');
export const groupEmailsSchema = z.array(z.string().trim().min(3).max(320)).max(1000);

/** The accounts the emails name; a 404 naming every email that names none (nothing is changed then). */
export async function accountsByEmails(db: Db, emails: string[]): Promise<string[]> {
  const userIds: string[] = [];
  const unknown: string[] = [];
  for (const email of emails) {
    const account = await accountByEmail(db, email);
    if (account) userIds.push(account.id);
    else unknown.push(email);
  }
  if (unknown.length > 0) throw new AppError('member:no_account', { message: `No account here has ${unknown.length === 1 ? 'this email' : 'these emails'}: ${unknown.join(', ')}. Each person makes one first (or is invited), then add them.`, reason: 'unknown emails' });
  return userIds;
}

/**
 * The group names a claim holds: a list of strings, or one string (some providers send one group
 * so); each a valid group name, at most 200 of them. Anything else in it is left out and counted.
 */
export function claimedGroupNames(claims: Record<string, unknown>, claim: string): { names: string[]; ignored: number } {
  const value = claims[claim];
  if (value === undefined || value === null) return { names: [], ignored: 0 };
  const values: unknown[] = Array.isArray(value) ? value : [value];
  const names: string[] = [];
  let ignored = 0;
  for (const entry of values) {
    const parsed = groupNameSchema.safeParse(entry);
    if (parsed.success && names.length < 200) names.push(parsed.data);
    else ignored += 1;
  }
  return { names: [...new Set(names)], ignored };
}
