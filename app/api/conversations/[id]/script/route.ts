import { route } from '@/lib/http/route.server';
import { ownConversationExport, scriptResponse } from '@/lib/notebook/load-export.server';

export const runtime = 'nodejs';

/** The conversation's code as a Python script (.py, percent cell format), as a download: to its owner and its readers (lib/access/authorize.server.ts). */
export const GET = route<{ id: string }>(async ({ params }) => scriptResponse((await ownConversationExport(params.id)).source));
