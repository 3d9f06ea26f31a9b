import { z } from 'zod';
import { getDb } from '@/lib/db/client.server';
import { getConversation } from '@/lib/db/queries/conversations.server';
import { listModelInputs, modelInputTotals, storedModelSees } from '@/lib/db/queries/model-inputs.server';
import { getConfig } from '@/lib/config.server';
import { strictest } from '@/lib/messages/model-input-schema';
import { AppError } from '@/lib/errors.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

const answerSchema = z.string().min(1).max(200);

/**
 * "What the model saw": the conversation's policy and running totals, and, with `?answer=<id>`,
 * every request recorded for that answer (lib/ai/model-input.server.ts), as the server sent it.
 */
export const GET = route<{ id: string }>(async ({ request, params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  const db = await getDb();
  const conversation = await getConversation(db, user.userId, id);
  if (!conversation) throw new AppError('conversation:not_found', { reason: 'conversation not owned' });
  const answer = new URL(request.url).searchParams.get('answer');
  const answerId = answer === null ? undefined : answerSchema.safeParse(answer).data;
  if (answer !== null && answerId === undefined) throw new AppError('request:invalid', { message: 'The answer id is not valid.', reason: 'answer id' });
  const totals = await modelInputTotals(db, id);
  return Response.json(
    {
      modelSees: strictest(getConfig().modelSees, storedModelSees(conversation.modelSees)),
      operatorModelSees: getConfig().modelSees,
      builtInModel: getConfig().models.models.every((model) => model.provider === 'demo'),
      totals: { requests: totals.requests, textBytes: totals.textBytes, imageBytes: totals.imageBytes },
      inputs: answerId === undefined ? [] : await listModelInputs(db, id, answerId),
    },
    { headers: { 'cache-control': 'no-store' } },
  );
});
