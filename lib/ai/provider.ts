/**
 * Turns a catalog entry (lib/ai/model-catalog.ts) into the AI SDK's model, through each
 * provider's own package: OpenAI (Responses API), Anthropic (Messages), Google (Gemini), any
 * OpenAI-compatible server (Chat Completions: Ollama, vLLM, LM Studio, llama.cpp), or the offline
 * demo model.
 */
import 'server-only';
import type { LanguageModel } from 'ai';
import type { ModelConfig } from '@/lib/config';
import { createDemoModel } from './demo-model';
import { languageModelFor } from './provider-clients';

export async function getLanguageModel(config: ModelConfig): Promise<LanguageModel> {
  if (config.provider === 'demo') return createDemoModel({ chunkDelayMs: config.chunkDelayMs });
  return languageModelFor(config);
}
