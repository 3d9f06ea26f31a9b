import { notFound } from '@/lib/http/errors';
import { route } from '@/lib/http/route';
import { shareIdSchema } from '@/lib/http/session';
import { loadShareExport, notebookResponse } from '@/lib/notebook/load-export';

export const runtime = 'nodejs';

/** The shared snapshot as a Jupyter notebook (.ipynb) with its outputs, as a download: to anyone holding an active link; no session needed. */
export const GET = route<{ id: string }>(async ({ params }) => {
  if (!shareIdSchema.safeParse(params.id).success) return notFound('malformed share id');
  const source = await loadShareExport(params.id);
  if (!source) return notFound('share not active');
  return notebookResponse(source);
});
