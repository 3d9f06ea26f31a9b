import { handleChat } from '@/lib/chat/handle-chat';
import { chatRequestSchema } from '@/lib/chat/request-schema';
import { readJson } from '@/lib/http/read-json';
import { currentUserId } from '@/lib/auth/current-user';
import { jsonError } from '@/lib/http/errors';
import { route } from '@/lib/http/route';
import { ServerTiming } from '@/lib/http/server-timing';

export const runtime = 'nodejs';
export const maxDuration = 300;

export const POST = route(
  async ({ request, requestId, log }) => {
    const timing = new ServerTiming();
    const body = await readJson(request, chatRequestSchema);
    if (!body.ok) return body.response;
    timing.mark('body');
    const userId = await currentUserId();
    if (!userId) return jsonError(401, 'Your session cookie is missing or invalid; reload the page.');
    timing.mark('session');
    return handleChat({ userId, request: body.value, timing, requestId, log });
  },
  { body: 'json' },
);
