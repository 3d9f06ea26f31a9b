import { AppError } from '@/lib/errors.server';
import { route } from '@/lib/http/route.server';
import { idOrNotFound, shareIdSchema } from '@/lib/http/session.server';
import { loadShareExport, scriptResponse } from '@/lib/notebook/load-export.server';

export const runtime = 'nodejs';

/** The shared snapshot's code as a Python script (.py, percent cell format), as a download: to anyone holding an active link; no session needed. */
export const GET = route<{ id: string }>(async ({ params }) => {
  const source = await loadShareExport(idOrNotFound(shareIdSchema, params.id, 'share:not_found', 'share id'));
  if (!source) throw new AppError('share:not_found', { reason: 'share not active' });
  return scriptResponse(source);
});
