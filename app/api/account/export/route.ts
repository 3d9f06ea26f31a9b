import { exportArchive } from '@/lib/account/export-archive';
import { attachmentDisposition } from '@/lib/notebook/load-export';
import { route } from '@/lib/http/route';
import { requireUser } from '@/lib/http/session';

export const runtime = 'nodejs';

/** Everything the current person owns, as one zip (lib/account/export-archive.ts). Guests may export too. */
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
