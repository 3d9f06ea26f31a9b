import { deviceDatasetSchema, storedFacts } from '@/lib/chat/project-datasets.server';
import { addProjectFile } from '@/lib/files/project-files.server';
import { storageQuota } from '@/lib/files/storage-quota.server';
import { checkUpload } from '@/lib/files/store-upload.server';
import { projectRequest } from '@/lib/http/project-request.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';

export const runtime = 'nodejs';

/**
 * Lists a dataset kept on the adding member's device in the project (its owner and those who can
 * edit): `{name, size, sha256, columns?, header?, rows?}`, never bytes. Each other member drops
 * their own copy, checked by its SHA-256 and kept on their device → 201 `{id, name, …, location: "device"}`.
 */
export const POST = route<{ id: string }>(
  async ({ request, params }) => {
    const { user, id, db } = await projectRequest(params.id, 'change_instructions');
    const file = await readJson(request, deviceDatasetSchema, 262_144);
    const { name, mediaType } = checkUpload(file.name);
    const facts = storedFacts(file);
    const added = await addProjectFile(db, user.userId, id, { name, mediaType, size: file.size, sha256: file.sha256, location: 'device', ...facts }, storageQuota());
    return Response.json({ id: added.id, name: added.name, size: file.size, mediaType, sha256: file.sha256, location: 'device', ...facts }, { status: 201 });
  },
  { body: 'json' },
);
