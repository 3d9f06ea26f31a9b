import { z } from 'zod';
import { getDb } from '@/lib/db/client.server';
import { addAccountFile } from '@/lib/files/file-queries.server';
import { AppError } from '@/lib/errors.server';
import { checkUpload, ownOrNewConversation } from '@/lib/files/store-upload.server';
import { storageQuota } from '@/lib/files/storage-quota.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

type Params = { id: string };

const linkSchema = z.strictObject({ sha256: z.string().regex(/^[0-9a-f]{64}$/), name: z.string().min(1).max(300) });

/**
 * Adds a file already in the person's account to this conversation ("My datasets"): no bytes are
 * sent; the blob must be one of the person's own (any of their conversations references it), is
 * linked here and counts against the quota. Answers like an upload (201, the stored name).
 */
export const POST = route<Params>(
  async ({ request, params }) => {
    const user = await requireUser();
    const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
    const link = await readJson(request, linkSchema);
    const checked = checkUpload(link.name);
    const db = await getDb();
    await ownOrNewConversation(db, user.userId, id);
    const added = await addAccountFile(db, user.userId, id, { sha256: link.sha256, name: checked.name }, storageQuota());
    if (!added) throw new AppError('file:not_found', { reason: 'blob not held by the person' });
    return Response.json(added, { status: 201 });
  },
  { body: 'json' },
);
