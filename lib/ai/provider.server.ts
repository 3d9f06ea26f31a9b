/**
 * Turns a catalog entry (lib/ai/model-catalog.server.ts) into the AI SDK's model, through each
 * provider's own package: OpenAI (Responses API), Anthropic (Messages), Google (Gemini), any
 * OpenAI-compatible server (Chat Completions: Ollama, vLLM, LM Studio, llama.cpp), or the offline
 * demo model.
 */
import 'server-only';
import type { ModelConfig } from '@/lib/config.server';
import type { ProviderModel } from './call-after.server';
import { createDemoModel } from './demo-model.server';
import { idleTimeoutFetch } from './idle-timeout-fetch.server';
import { languageModelFor } from './provider-clients.server';

/** idle: when the model sends no byte for `ms`, `onIdle` is called (lib/ai/idle-timeout-fetch.server.ts). */
export async function getLanguageModel(config: ModelConfig, idle?: { ms: number; onIdle?: () => void }): Promise<ProviderModel> {
  if (config.provider === 'demo') return createDemoModel({ chunkDelayMs: config.chunkDelayMs });
  return languageModelFor(config, idle ? idleTimeoutFetch(idle.ms, idle.onIdle) : undefined);
}
