/**
 * The AI SDK client for one remote model. No `server-only` here, so the wire-protocol tests
 * (provider-clients.test.ts) drive exactly these clients against the fake servers.
 * Packages are imported when needed, after getConfig() has dropped empty variables: some build a
 * default provider from process.env when they load and reject a base URL of "".
 */
import 'server-only';
import type { ProviderModel } from './call-after.server';
import type { ModelEntry } from '@/lib/model-catalog.server';

/** Which message format a model's history is rebuilt in (lib/ai/model-messages.server.ts). */
export type ModelApi = 'responses' | 'chat' | 'anthropic' | 'google';

export function apiOf(provider: ModelEntry['provider']): ModelApi {
  if (provider === 'openai-compatible') return 'chat';
  if (provider === 'anthropic') return 'anthropic';
  if (provider === 'google') return 'google';
  return 'responses';
}

type RemoteModel = Pick<ModelEntry, 'provider' | 'model' | 'baseURL' | 'apiKey'>;

/** fetch: the transport (the idle timeout's, lib/ai/idle-timeout-fetch.server.ts); the global one when absent. */
export async function languageModelFor(entry: RemoteModel, fetch?: typeof globalThis.fetch): Promise<ProviderModel> {
  switch (entry.provider) {
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({ apiKey: entry.apiKey ?? '', fetch, ...(entry.baseURL ? { baseURL: entry.baseURL } : {}) })(entry.model);
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      return createGoogleGenerativeAI({ apiKey: entry.apiKey ?? '', fetch, ...(entry.baseURL ? { baseURL: entry.baseURL } : {}) })(entry.model);
    }
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ apiKey: entry.apiKey ?? '', baseURL: entry.baseURL ?? 'https://api.openai.com/v1', fetch }).responses(entry.model);
    }
    case 'openai-compatible': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ baseURL: entry.baseURL, apiKey: entry.apiKey ?? 'not-needed', name: 'openai-compatible', fetch }).chat(entry.model);
    }
    case 'demo':
      throw new Error('the demo model is made by lib/ai/provider.server.ts');
  }
}
