import { z } from 'zod';
import { changePerson } from '@/lib/auth/admin-accounts.server';
import { getDb } from '@/lib/db/client.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { idOrNotFound, requireAdmin } from '@/lib/http/session.server';

export const runtime = 'nodejs';

const limit = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable();
const changeSchema = z.strictObject({
  blocked: z.boolean().optional(),
  limits: z.strictObject({ modelRequestsPerMinute: limit, modelRequestsPerDay: limit, storageBytes: limit, tokensPerDay: limit.optional() }).optional(),
});

/** An admin blocks or unblocks a person, or sets their limits (null: the instance's default). */
export const PATCH = route<{ id: string }>(
  async ({ request, params, log }) => {
    const admin = await requireAdmin();
    const personId = idOrNotFound(z.uuid(), params.id, 'person:not_found', 'person id');
    const change = await readJson(request, changeSchema);
    await changePerson(await getDb(), { adminId: admin.userId, id: personId, change });
    log.info({ admin: admin.userId, person: personId, change }, 'admin changed a person');
    return Response.json({ updated: true });
  },
  { body: 'json' },
);
