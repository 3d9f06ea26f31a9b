import { describe, expect, it } from 'vitest';
import { modelCatalogFromEnv } from '@/lib/model-catalog.server';
import { newConversationModel, offeredOwnModel } from './starting-model.server';

const catalog = (models: object[], env: Record<string, string> = {}) => modelCatalogFromEnv({ RUNPAD_MODELS: JSON.stringify(models), ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o', ...env });
const CLAUDE = { id: 'claude', provider: 'anthropic', model: 'claude-sonnet-4-5' };
const GPT = { id: 'gpt', provider: 'openai', model: 'gpt-5-mini' };
const DEMO = { id: 'demo', provider: 'demo' };

describe('the model a conversation starts on', () => {
  it('a new conversation starts on the model the person last chose, when it is still offered', () => {
    expect(newConversationModel(catalog([CLAUDE, GPT]), 'gpt')).toBe('gpt');
  });

  it('else on the operator’s default: the first entry', () => {
    expect(newConversationModel(catalog([CLAUDE, GPT]), null)).toBe('claude');
    // A last choice the operator no longer offers.
    expect(newConversationModel(catalog([CLAUDE, GPT]), 'gemini')).toBe('claude');
  });

  it('or the entry marked "default": true', () => {
    const marked = catalog([CLAUDE, { ...GPT, default: true }]);
    expect(marked.defaultId).toBe('gpt');
    expect(newConversationModel(marked, null)).toBe('gpt');
    expect(newConversationModel(marked, 'claude')).toBe('claude');
  });

  it('never carries the offline demo over once a real model is offered', () => {
    expect(newConversationModel(catalog([CLAUDE, GPT, DEMO]), 'demo')).toBe('claude');
    expect(newConversationModel(catalog([CLAUDE, DEMO]), 'demo')).toBe('claude');
    expect(newConversationModel(catalog([DEMO, { ...CLAUDE, default: true }]), 'demo')).toBe('claude');
    // The single-model shorthand after the demo: the demo is not even offered any more.
    expect(newConversationModel(modelCatalogFromEnv({ OPENAI_API_KEY: 'o' }), 'demo')).toBe('default');
    // The operator's own default stays what it is, even the demo listed first.
    expect(newConversationModel(catalog([DEMO, CLAUDE]), 'claude')).toBe('claude');
    expect(newConversationModel(catalog([DEMO, CLAUDE]), null)).toBe('demo');
    // With only demo models, the last one chosen is kept.
    expect(newConversationModel(catalog([DEMO, { id: 'demo-2', provider: 'demo' }]), 'demo-2')).toBe('demo-2');
  });

  it('an existing conversation keeps its own model while it is offered', () => {
    expect(offeredOwnModel(catalog([CLAUDE, GPT]), 'gpt')).toBe('gpt');
    expect(offeredOwnModel(catalog([CLAUDE, DEMO]), 'demo')).toBe('demo');
    expect(offeredOwnModel(catalog([CLAUDE, GPT]), 'gemini')).toBeNull();
    expect(offeredOwnModel(catalog([CLAUDE, GPT]), null)).toBeNull();
  });
});
