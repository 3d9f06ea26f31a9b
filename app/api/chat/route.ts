import { handleChat } from '@/lib/chat/handle-chat.server';
import { chatRequestSchema } from '@/lib/chat/request-schema.server';
import { readJson } from '@/lib/http/read-json.server';
import { requireUser } from '@/lib/http/session.server';
import { route } from '@/lib/http/route.server';
import { ServerTiming } from '@/lib/http/server-timing.server';

export const runtime = 'nodejs';
export const maxDuration = 300;

export const POST = route(
  async ({ request, requestId, log }) => {
    const timing = new ServerTiming();
    const body = await readJson(request, chatRequestSchema);
    timing.mark('body');
    const identity = await requireUser();
    timing.mark('session');
    return handleChat({ identity, request: body, timing, requestId, log });
  },
  { body: 'json' },
);
