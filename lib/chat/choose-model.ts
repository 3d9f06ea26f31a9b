/**
 * Which model answers a chat request: the one the page picked if the operator offers it, else the
 * conversation's own, else the one the user used last, else the default. A picked id that is not
 * in the operator's list is refused: the browser's word is never taken for a model.
 */
import 'server-only';
import { defaultModel, findConfiguredModel, getConfig, type ModelConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { getConversation, lastUsedModelId } from '@/lib/db/queries/conversations';
import type { ChatRequest } from './request-schema';

export type ChosenModel = { ok: true; model: ModelConfig } | { ok: false; message: string };

export async function chooseModel(db: Db, userId: string, request: Pick<ChatRequest, 'id' | 'modelId'>): Promise<ChosenModel> {
  if (request.modelId !== undefined) {
    const picked = findConfiguredModel(request.modelId);
    return picked ? { ok: true, model: picked } : { ok: false, message: 'The model picked for this conversation is not offered on this server any more: pick another one in the header.' };
  }
  const own = (await getConversation(db, userId, request.id))?.modelId;
  return { ok: true, model: findConfiguredModel(own) ?? findConfiguredModel(await lastUsedModelId(db, userId)) ?? defaultModel() };
}

/** The model a page starts with: the conversation's, else the user's last, else the default (ids only). */
export async function initialModelId(db: Db, userId: string | null, conversationModelId: string | null): Promise<string> {
  const own = findConfiguredModel(conversationModelId);
  if (own) return own.id;
  if (getConfig().models.models.length === 1) return defaultModel().id;
  const last = userId ? findConfiguredModel(await lastUsedModelId(db, userId)) : null;
  return (last ?? defaultModel()).id;
}
