import { getBlobStore } from '@/lib/files/app-blob-store.server';
import { getDb } from '@/lib/db/client.server';
import { conversationDownloadFiles } from '@/lib/chat/project-datasets.server';
import { route } from '@/lib/http/route.server';
import { bundleFileName, exportBundle } from '@/lib/notebook/bundle.server';
import { attachmentDisposition, ownConversationExport } from '@/lib/notebook/load-export.server';

export const runtime = 'nodejs';

/**
 * "Download with data": the notebook, the script, data/ with the conversation's files and the
 * project's datasets it used (those the asker may read), requirements.txt and a README, as one zip:
 * to its owner and its readers (lib/access/authorize.server.ts). Files are read by the
 * conversation's and the datasets' own references (lib/chat/project-datasets.server.ts,
 * conversationDownloadFiles); a file kept on a device is named in the README, never read.
 */
export const GET = route<{ id: string }>(async ({ params }) => {
  const { asker, authorId, conversationId, source } = await ownConversationExport(params.id);
  const files = await conversationDownloadFiles(await getDb(), await getBlobStore(), asker, authorId, conversationId);
  return new Response(exportBundle(source, files), {
    headers: {
      'content-type': 'application/zip',
      'content-disposition': attachmentDisposition(bundleFileName(source.title)),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
});
