import { exportArchive } from '@/lib/account/export-archive.server';
import { attachmentDisposition } from '@/lib/notebook/load-export.server';
import { route } from '@/lib/http/route.server';
import { requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** Everything the current person owns, as one zip (lib/account/export-archive.server.ts). Guests may export too. */
export const GET = route(async () => {
  const user = await requireUser();
  return new Response(exportArchive(user.userId), {
    headers: {
      'content-type': 'application/zip',
      'content-disposition': attachmentDisposition(`runpad-export-${new Date().toISOString().slice(0, 10)}.zip`),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
});
