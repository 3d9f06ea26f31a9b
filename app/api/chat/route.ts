import { handleChat } from '@/lib/chat/handle-chat';
import { chatRequestSchema } from '@/lib/chat/request-schema';
import { readJson } from '@/lib/http/read-json';
import { currentUserId } from '@/lib/auth/current-user';
import { ServerTiming } from '@/lib/http/server-timing';

export const runtime = 'nodejs';
export const maxDuration = 300;

export async function POST(request: Request) {
  const timing = new ServerTiming();
  const body = await readJson(request, chatRequestSchema);
  if (!body.ok) return body.response;
  timing.mark('body');
  const userId = await currentUserId();
  if (!userId) return Response.json({ error: 'Your session cookie is missing or invalid; reload the page.' }, { status: 401 });
  timing.mark('session');
  return handleChat({ userId, request: body.value, abortSignal: request.signal, timing });
}
