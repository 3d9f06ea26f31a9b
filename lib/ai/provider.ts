/**
 * Picks the language model from the configuration: OpenAI (Responses API), any
 * OpenAI-compatible server (Chat Completions), or the offline demo model.
 */
import 'server-only';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import type { ModelConfig } from '@/lib/config';
import { createDemoModel } from './demo-model';

export function getLanguageModel(config: ModelConfig): LanguageModel {
  switch (config.kind) {
    case 'openai':
      return createOpenAI({ apiKey: config.apiKey }).responses(config.model);
    case 'compatible':
      return createOpenAI({ baseURL: config.baseURL, apiKey: config.apiKey ?? 'not-needed', name: 'openai-compatible' }).chat(config.model);
    case 'demo':
      return createDemoModel({ chunkDelayMs: config.chunkDelayMs });
  }
}
