/**
 * Picks the language model from the configuration: OpenAI (Responses API), any
 * OpenAI-compatible server (Chat Completions), or the offline demo model.
 */
import 'server-only';
import type { LanguageModel } from 'ai';
import type { ModelConfig } from '@/lib/config';
import { createDemoModel } from './demo-model';
import { idleTimeoutFetch } from './idle-timeout-fetch';

/** idle: when the model sends no byte for `ms`, `onIdle` is called (lib/ai/idle-timeout-fetch.ts). */
export async function getLanguageModel(config: ModelConfig, idle?: { ms: number; onIdle?: () => void }): Promise<LanguageModel> {
  if (config.kind === 'demo') return createDemoModel({ chunkDelayMs: config.chunkDelayMs });
  // Imported only when needed, after getConfig() has dropped empty variables: @ai-sdk/openai
  // builds a default provider from process.env when it loads and rejects OPENAI_BASE_URL="".
  const { createOpenAI } = await import('@ai-sdk/openai');
  const fetch = idle ? idleTimeoutFetch(idle.ms, idle.onIdle) : undefined;
  if (config.kind === 'openai') return createOpenAI({ apiKey: config.apiKey, baseURL: 'https://api.openai.com/v1', fetch }).responses(config.model);
  return createOpenAI({ baseURL: config.baseURL, apiKey: config.apiKey ?? 'not-needed', name: 'openai-compatible', fetch }).chat(config.model);
}
