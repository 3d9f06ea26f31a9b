/**
 * Which model answers a chat request: the one the page picked if the operator offers it, else the
 * conversation's own, else the one the user used last, else the default. A picked id that is not
 * in the operator's list is refused: the browser's word is never taken for a model.
 */
import 'server-only';
import { defaultModel, findConfiguredModel, getConfig, type ModelConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { AppError } from '@/lib/errors';
import { getConversation, lastUsedModelId } from '@/lib/db/queries/conversations';
import type { ChatRequest } from './request-schema';

/** Throws request:invalid (400, in words) for a picked id the operator does not offer. */
export async function chooseModel(db: Db, userId: string, request: Pick<ChatRequest, 'id' | 'modelId'>): Promise<ModelConfig> {
  if (request.modelId !== undefined) {
    const picked = findConfiguredModel(request.modelId);
    if (picked) return picked;
    throw new AppError('request:invalid', {
      message: 'The model picked for this conversation is not offered on this server any more: pick another one in the header.',
      reason: 'model not offered',
      details: { cause: 'model-not-offered' },
    });
  }
  const own = (await getConversation(db, userId, request.id))?.modelId;
  return findConfiguredModel(own) ?? findConfiguredModel(await lastUsedModelId(db, userId)) ?? defaultModel();
}

/** The model a page starts with: the conversation's, else the user's last, else the default (ids only). */
export async function initialModelId(db: Db, userId: string | null, conversationModelId: string | null): Promise<string> {
  const own = findConfiguredModel(conversationModelId);
  if (own) return own.id;
  if (getConfig().models.models.length === 1) return defaultModel().id;
  const last = userId ? findConfiguredModel(await lastUsedModelId(db, userId)) : null;
  return (last ?? defaultModel()).id;
}
