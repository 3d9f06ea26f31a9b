import { AppError } from '@/lib/errors.server';
import { route } from '@/lib/http/route.server';
import { idOrNotFound, shareIdSchema } from '@/lib/http/session.server';
import { loadShareExport, notebookResponse } from '@/lib/notebook/load-export.server';

export const runtime = 'nodejs';

/** The shared snapshot as a Jupyter notebook (.ipynb) with its outputs, as a download: to anyone holding an active link; no session needed. */
export const GET = route<{ id: string }>(async ({ params }) => {
  const source = await loadShareExport(idOrNotFound(shareIdSchema, params.id, 'share:not_found', 'share id'));
  if (!source) throw new AppError('share:not_found', { reason: 'share not active' });
  return notebookResponse(source);
});
