/**
 * Whom a share names: an account by its email, or a group by its id (exactly one), as a project's
 * member and a conversation's reader alike. Checked with zod at the route, then resolved here to
 * the account or group it names, or refused in words.
 */
import 'server-only';
import { z } from 'zod';
import type { Db } from '@/lib/db/client.server';
import { accountByEmail, getGroup, type Grantee } from '@/lib/db/queries/projects.server';
import { AppError } from '@/lib/errors.server';

/** An email as accounts hold it: any script, quotes too; the lookup is what checks it names someone. */
const emailSchema = z.string().trim().min(3).max(320).regex(/^[^\p{Cc}]+@[^\p{Cc}@]+$/u, 'an email address');

/** `{email}` or `{groupId}`, with the request's other fields. */
export function granteeWith<Extra extends z.ZodRawShape>(extra: Extra) {
  return z.union([z.strictObject({ email: emailSchema, ...extra }), z.strictObject({ groupId: z.uuid(), ...extra })]);
}
export const granteeSchema = granteeWith({});
export type GranteeInput = { email: string } | { groupId: string };

/** The account or group the input names; a 404 in words when there is none. */
export async function resolveGrantee(db: Db, input: GranteeInput): Promise<Grantee> {
  if ('groupId' in input) {
    if (!(await getGroup(db, input.groupId))) throw new AppError('group:not_found', { reason: 'unknown group' });
    return { groupId: input.groupId };
  }
  const account = await accountByEmail(db, input.email);
  if (!account) throw new AppError('member:no_account', { reason: 'no account with this email' });
  return { userId: account.id };
}
