import { notFound } from '@/lib/http/errors';
import { route } from '@/lib/http/route';
import { shareIdSchema } from '@/lib/http/session';
import { loadShareExport, scriptResponse } from '@/lib/notebook/load-export';

export const runtime = 'nodejs';

/** The shared snapshot's code as a Python script (.py, percent cell format), as a download: to anyone holding an active link; no session needed. */
export const GET = route<{ id: string }>(async ({ params }) => {
  if (!shareIdSchema.safeParse(params.id).success) return notFound('malformed share id');
  const source = await loadShareExport(params.id);
  if (!source) return notFound('share not active');
  return scriptResponse(source);
});
