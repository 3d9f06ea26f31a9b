import { route } from '@/lib/http/route.server';
import { notebookResponse, ownConversationExport } from '@/lib/notebook/load-export.server';

export const runtime = 'nodejs';

/** The conversation as a Jupyter notebook (.ipynb) with its outputs, as a download: to its owner and its readers (lib/access/authorize.server.ts). */
export const GET = route<{ id: string }>(async ({ params }) => notebookResponse((await ownConversationExport(params.id)).source));
