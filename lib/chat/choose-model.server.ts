/**
 * Which model answers a chat request: the one the page picked if the operator offers it, else the
 * conversation's own, else the one a new conversation starts on (./starting-model.ts: the person's
 * last choice, never the demo model once a real one is offered, else the operator's default). A
 * picked id that is not in the operator's list is refused: the browser's word is never taken for a
 * model.
 */
import 'server-only';
import { defaultModel, findConfiguredModel, getConfig, type ModelConfig } from '@/lib/config.server';
import type { Db } from '@/lib/db/client.server';
import { AppError } from '@/lib/errors.server';
import { getConversation, lastUsedModelId, type ConversationRow } from '@/lib/db/queries/conversations.server';
import type { ChatRequest } from './request-schema.server';
import { lastChoiceMatters, newConversationModel, offeredOwnModel } from './starting-model.server';

/**
 * Throws request:invalid (400, in words) for a picked id the operator does not offer. `conversation`:
 * the request's conversation as the caller read it (null: none yet); read here when not given.
 */
export async function chooseModel(db: Db, userId: string, request: Pick<ChatRequest, 'id' | 'modelId'>, conversation?: ConversationRow | null): Promise<ModelConfig> {
  if (request.modelId !== undefined) {
    const picked = findConfiguredModel(request.modelId);
    if (picked) return picked;
    throw new AppError('request:invalid', {
      message: 'The model picked for this conversation is not offered on this server any more: pick another one in the header.',
      reason: 'model not offered',
      details: { cause: 'model-not-offered' },
    });
  }
  const { models } = getConfig();
  const own = offeredOwnModel(models, (conversation === undefined ? await getConversation(db, userId, request.id) : conversation)?.modelId);
  if (own) return findConfiguredModel(own) ?? defaultModel();
  return findConfiguredModel(newConversationModel(models, await lastChosenModelId(db, userId))) ?? defaultModel();
}

/** The model a page starts with: the conversation's if still offered, else the one a new conversation starts on (ids only). */
export async function initialModelId(db: Db, userId: string | null, conversationModelId: string | null): Promise<string> {
  const { models } = getConfig();
  return offeredOwnModel(models, conversationModelId) ?? newConversationModel(models, userId ? await lastChosenModelId(db, userId) : null);
}

/** The person's last choice: the model of their most recently active conversation (not asked with one model offered). */
async function lastChosenModelId(db: Db, userId: string): Promise<string | null> {
  return lastChoiceMatters(getConfig().models) ? lastUsedModelId(db, userId) : null;
}
