import { z } from 'zod';
import { getDb } from '@/lib/db/client.server';
import { addDeviceFile } from '@/lib/files/file-queries.server';
import { AppError } from '@/lib/errors.server';
import { checkUpload, ownOrNewConversation } from '@/lib/files/store-upload.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

type Params = { id: string };

/** What the page says about a file it keeps on the device: never its bytes. */
const deviceFileSchema = z.strictObject({
  name: z.string().min(1).max(300),
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/**
 * Records a dataset kept on the person's device (lib/files/device-files.client.ts): its name, size
 * and SHA-256. No bytes reach the server and none of the account's storage is used; the
 * conversation's engines read the file in place on that device. Answers like an upload (201, the
 * stored name, which may carry " (1)" when the name was taken), with `location: 'device'`.
 */
export const POST = route<Params>(
  async ({ request, params }) => {
    const user = await requireUser();
    const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
    const file = await readJson(request, deviceFileSchema);
    const checked = checkUpload(file.name);
    const db = await getDb();
    await ownOrNewConversation(db, user.userId, id);
    const name = await addDeviceFile(db, user.userId, id, { name: checked.name, mediaType: checked.mediaType, size: file.size, sha256: file.sha256 });
    if (name === null) throw new AppError('conversation:not_found', { reason: 'conversation not owned when adding the file' });
    return Response.json({ name, size: file.size, mediaType: checked.mediaType, sha256: file.sha256, location: 'device' }, { status: 201 });
  },
  { body: 'json' },
);
