import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { updatePerson } from '@/lib/db/queries/users';
import { notFound } from '@/lib/http/errors';
import { readJson } from '@/lib/http/read-json';
import { route } from '@/lib/http/route';
import { requireAdmin } from '@/lib/http/session';

export const runtime = 'nodejs';

const limit = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable();
const changeSchema = z.strictObject({
  blocked: z.boolean().optional(),
  limits: z.strictObject({ modelRequestsPerMinute: limit, modelRequestsPerDay: limit, storageBytes: limit }).optional(),
});

/** An admin blocks or unblocks a person, or sets their limits (null: the instance's default). */
export const PATCH = route<{ id: string }>(
  async ({ request, params, log }) => {
    const admin = await requireAdmin();
    if (!admin.ok) return admin.response;
    if (!z.uuid().safeParse(params.id).success) return notFound('malformed person id');
    const body = await readJson(request, changeSchema);
    if (!body.ok) return body.response;
    if (!(await updatePerson(await getDb(), params.id, body.value))) return notFound('no such person');
    log.info({ admin: admin.userId, person: params.id, change: body.value }, 'admin changed a person');
    return Response.json({ updated: true });
  },
  { body: 'json' },
);
