import { getBlobStore } from '@/lib/files/app-blob-store.server';
import { getDb } from '@/lib/db/client.server';
import { listFiles } from '@/lib/db/queries/files.server';
import { AppError } from '@/lib/errors.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';
import { bundleFileName, exportBundle } from '@/lib/notebook/bundle.server';
import { attachmentDisposition, loadConversationExport } from '@/lib/notebook/load-export.server';

export const runtime = 'nodejs';

/** "Download with data": the notebook, the script, data/ with the conversation's files, requirements.txt and a README, as one zip: to its owner only. */
export const GET = route<{ id: string }>(async ({ params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  const source = await loadConversationExport(user.userId, id);
  if (!source) throw new AppError('conversation:not_found', { reason: 'conversation not owned' });
  const [files, store] = await Promise.all([listFiles(await getDb(), id), getBlobStore()]);
  const body = exportBundle(
    source,
    files.map((file) => ({ name: file.name, read: () => store.read(file.sha256) })),
  );
  return new Response(body, {
    headers: {
      'content-type': 'application/zip',
      'content-disposition': attachmentDisposition(bundleFileName(source.title)),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
});
