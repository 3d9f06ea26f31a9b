/**
 * The model a conversation starts on (pure; lib/chat/choose-model.server.ts asks the database): its own
 * model if the operator still offers it; for a new one, the model the person last chose among
 * those still offered; else the operator's default (the entry of RUNPAD_MODELS marked
 * `"default": true`, or the first). The offline demo model is never carried over to a new
 * conversation while a real model is offered: someone who tried Runpad before the operator
 * configured a model starts on the model the operator configured.
 */
import 'server-only';
import type { ModelEntry } from '@/lib/model-catalog.server';

type Catalog = { models: Array<Pick<ModelEntry, 'id' | 'provider'>>; defaultId: string };

/** The conversation's own model id when offered, else null (a new conversation, or a model withdrawn). */
export function offeredOwnModel(catalog: Catalog, conversationModelId: string | null | undefined): string | null {
  return catalog.models.find((m) => m.id === conversationModelId)?.id ?? null;
}

/** The model a new conversation starts on, given the id the person last chose (or null). */
export function newConversationModel(catalog: Catalog, lastChosenModelId: string | null | undefined): string {
  const last = catalog.models.find((m) => m.id === lastChosenModelId);
  const realOffered = catalog.models.some((m) => m.provider !== 'demo');
  if (last && !(last.provider === 'demo' && realOffered)) return last.id;
  return catalog.models.find((m) => m.id === catalog.defaultId)?.id ?? catalog.models[0].id;
}

/** Whether the person's last choice could matter: with one model there is nothing to carry over. */
export function lastChoiceMatters(catalog: Catalog): boolean {
  return catalog.models.length > 1;
}
