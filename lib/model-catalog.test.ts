import { describe, expect, it } from 'vitest';
import { findModel, modelCatalogFromEnv, modelChoice } from './model-catalog.server';

describe('the models people may pick', () => {
  it('is the offline demo model when nothing is configured', () => {
    const catalog = modelCatalogFromEnv({});
    expect(catalog.models.map((m) => [m.id, m.provider, m.label])).toEqual([['demo', 'demo', 'Offline demo model']]);
    expect(catalog.defaultId).toBe('demo');
  });

  it('keeps the single-model shorthand: OpenAI with a key, an OpenAI-compatible server with a base URL', () => {
    expect(modelCatalogFromEnv({ OPENAI_API_KEY: 'sk-1', RUNPAD_MODEL: 'gpt-x' }).models[0]).toMatchObject({ provider: 'openai', model: 'gpt-x', label: 'gpt-x', apiKey: 'sk-1', tools: true, images: true });
    expect(modelCatalogFromEnv({ OPENAI_BASE_URL: 'http://localhost:11434/v1' }).models[0]).toMatchObject({ provider: 'openai-compatible', baseURL: 'http://localhost:11434/v1', model: 'gpt-5-mini' });
  });

  it('reads RUNPAD_MODELS: providers, labels, capabilities, keys from each provider’s variable or the one named', () => {
    const catalog = modelCatalogFromEnv({
      RUNPAD_MODELS: JSON.stringify([
        { id: 'claude', provider: 'anthropic', model: 'claude-sonnet-4-5', label: 'Claude Sonnet', contextTokens: 200000 },
        { id: 'gemini', provider: 'google', model: 'gemini-2.5-flash' },
        { id: 'llama', provider: 'openai-compatible', model: 'llama3.2', baseURL: 'http://localhost:11434/v1', tools: false, images: false, apiKeyEnv: 'OLLAMA_KEY' },
        { id: 'demo', provider: 'demo' },
      ]),
      ANTHROPIC_API_KEY: 'a-key',
      GOOGLE_GENERATIVE_AI_API_KEY: 'g-key',
      GOOGLE_GENERATIVE_AI_BASE_URL: 'http://gemini.test/v1beta',
      OLLAMA_KEY: 'o-key',
    });
    expect(catalog.defaultId).toBe('claude');
    expect(findModel(catalog, 'claude')).toMatchObject({ provider: 'anthropic', label: 'Claude Sonnet', apiKey: 'a-key', apiKeyVariable: 'ANTHROPIC_API_KEY', contextTokens: 200000 });
    expect(findModel(catalog, 'gemini')).toMatchObject({ label: 'gemini-2.5-flash', apiKey: 'g-key', baseURL: 'http://gemini.test/v1beta' });
    expect(findModel(catalog, 'llama')).toMatchObject({ tools: false, images: false, apiKey: 'o-key', apiKeyVariable: 'OLLAMA_KEY' });
    expect(findModel(catalog, 'demo')).toMatchObject({ provider: 'demo' });
    // The browser learns ids, labels and capabilities; never a key or a URL.
    const choice = JSON.stringify(catalog.models.map(modelChoice));
    expect(choice).not.toMatch(/key|localhost|gemini\.test/);
    expect(findModel(catalog, 'gpt-4')).toBeNull();
  });

  it('refuses a bad list with the variable and what is wrong', () => {
    expect(() => modelCatalogFromEnv({ RUNPAD_MODELS: 'not json' })).toThrow(/RUNPAD_MODELS: not valid JSON/);
    expect(() => modelCatalogFromEnv({ RUNPAD_MODELS: '[{"id":"x","provider":"mistral","model":"m"}]' })).toThrow(/RUNPAD_MODELS: entry 1 \("x"\), "provider": provider "mistral" is not one Runpad speaks/);
    expect(() => modelCatalogFromEnv({ RUNPAD_MODELS: '[{"id":"a","provider":"anthropic","model":"m"},{"id":"a","provider":"google","model":"n"}]' })).toThrow(/unique/);
    expect(() => modelCatalogFromEnv({ RUNPAD_MODELS: '[{"id":"a","provider":"openai-compatible","model":"m"}]' })).toThrow(/baseURL/);
    expect(() => modelCatalogFromEnv({ RUNPAD_MODELS: '[{"id":"a","provider":"anthropic"}]' })).toThrow(/"model" is required/);
    expect(() => modelCatalogFromEnv({ RUNPAD_MODELS: '[{"id":"a","provider":"anthropic","model":"m","apiKey":"sk"}]' })).toThrow(/apiKey/);
  });
});

describe('model prices', () => {
  it('are optional on an entry, in USD per million input and output tokens; the demo model costs nothing', () => {
    const catalog = modelCatalogFromEnv({
      RUNPAD_MODELS: JSON.stringify([
        { id: 'claude', provider: 'anthropic', model: 'claude-sonnet-4-5', price: { input: 3, output: 15 } },
        { id: 'local', provider: 'openai-compatible', model: 'llama', baseURL: 'http://127.0.0.1:11434/v1' },
        { id: 'demo', provider: 'demo' },
      ]),
      ANTHROPIC_API_KEY: 'test-key',
    });
    expect(catalog.models.map((m) => [m.id, m.price])).toEqual([
      ['claude', { input: 3, output: 15 }],
      ['local', null],
      ['demo', { input: 0, output: 0 }],
    ]);
    expect(modelCatalogFromEnv({ OPENAI_API_KEY: 'k' }).models[0].price).toBeNull();
    expect(() => modelCatalogFromEnv({ RUNPAD_MODELS: '[{"id":"a","provider":"anthropic","model":"m","price":{"input":-1,"output":2}}]' })).toThrow(/RUNPAD_MODELS: entry 1 \("a"\), "price\.input"/);
    expect(() => modelCatalogFromEnv({ RUNPAD_MODELS: '[{"id":"a","provider":"anthropic","model":"m","price":{"input":1}}]' })).toThrow(/RUNPAD_MODELS: entry 1 \("a"\), "price\.output"/);
  });
});
