/**
 * The models people may pick (ARCHITECTURE.md, "Model loop: providers"): the operator's list from
 * RUNPAD_MODELS, or the single-model shorthand (OPENAI_API_KEY / OPENAI_BASE_URL / RUNPAD_MODEL),
 * or the offline demo model when nothing is configured. Pure: lib/config.ts hands it the
 * environment, so every rule is unit-tested (model-catalog.test.ts).
 */
import { z } from 'zod';

export const MODEL_PROVIDERS = ['openai', 'anthropic', 'google', 'openai-compatible', 'demo'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** What a model can do; it decides how Runpad talks to it (tools or code blocks, images or words). */
export type ModelCapabilities = { tools: boolean; images: boolean; contextTokens: number | null };

/** One pickable model, as the server holds it (with its key); never sent to the browser whole. */
export type ModelEntry = ModelCapabilities & {
  id: string;
  provider: ModelProvider;
  model: string;
  label: string;
  baseURL?: string;
  apiKey?: string;
  /** The variable that holds its key, named in error messages ("check ANTHROPIC_API_KEY"). */
  apiKeyVariable: string | null;
  /** The variable (or list) that names its base URL or model, for "model not found" messages. */
  configVariable: string;
  /** USD per million input and output tokens, when the operator set them; the demo model costs 0. */
  price: ModelPrice | null;
};

/** What a model's tokens cost: USD per million input tokens and per million output tokens. */
export type ModelPrice = { input: number; output: number };

/** What the browser learns of a model: enough to list it and to say what it can do. */
export type ModelChoice = Pick<ModelEntry, 'id' | 'label' | 'provider' | 'tools' | 'images' | 'contextTokens'>;

export const modelIdSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9._:-]+$/);

/** One entry of RUNPAD_MODELS. Keys are never written in it: `apiKeyEnv` names the variable. */
const modelSpecSchema = z.strictObject({
  id: modelIdSchema,
  provider: z.enum(MODEL_PROVIDERS),
  model: z.string().min(1).max(200).optional(),
  label: z.string().min(1).max(80).optional(),
  tools: z.boolean().default(true),
  images: z.boolean().default(true),
  contextTokens: z.number().int().positive().optional(),
  baseURL: z.url().optional(),
  apiKeyEnv: z.string().regex(/^[A-Z_][A-Z0-9_]*$/).optional(),
  /** USD per million tokens, for the admin page's costs (lib/usage/cost.ts). */
  price: z.strictObject({ input: z.number().min(0).max(1_000_000), output: z.number().min(0).max(1_000_000) }).optional(),
});
export const modelListSchema = z
  .array(modelSpecSchema)
  .min(1)
  .max(50)
  .refine((list) => new Set(list.map((m) => m.id)).size === list.length, 'model ids must be unique');

/** Where each provider's key and base URL come from when an entry does not say. */
const PROVIDER_ENV: Record<Exclude<ModelProvider, 'demo'>, { key: string; baseURL: string | null }> = {
  openai: { key: 'OPENAI_API_KEY', baseURL: null },
  anthropic: { key: 'ANTHROPIC_API_KEY', baseURL: 'ANTHROPIC_BASE_URL' },
  google: { key: 'GOOGLE_GENERATIVE_AI_API_KEY', baseURL: 'GOOGLE_GENERATIVE_AI_BASE_URL' },
  'openai-compatible': { key: 'OPENAI_API_KEY', baseURL: 'OPENAI_BASE_URL' },
};

export const DEMO_MODEL_LABEL = 'Offline demo model';
const DEFAULT_OPENAI_MODEL = 'gpt-5-mini';

export type CatalogEnv = Record<string, string | undefined>;
export type ModelCatalog = { models: ModelEntry[]; defaultId: string };

function demoEntry(id = 'demo', label = DEMO_MODEL_LABEL, capabilities: Partial<ModelCapabilities> = {}): ModelEntry {
  return { id, provider: 'demo', model: 'demo', label, tools: true, images: true, contextTokens: null, ...capabilities, apiKeyVariable: null, configVariable: 'RUNPAD_MODELS', price: { input: 0, output: 0 } };
}

/** Parses RUNPAD_MODELS (JSON); throws with the variable's name and what is wrong. */
export function parseModelList(raw: string): z.infer<typeof modelListSchema> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('RUNPAD_MODELS: not valid JSON (expected a list like [{"id":"claude","provider":"anthropic","model":"claude-sonnet-4-5"}])');
  }
  const parsed = modelListSchema.safeParse(json);
  if (!parsed.success) throw new Error(`RUNPAD_MODELS: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(list)'}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export function modelCatalogFromEnv(env: CatalogEnv): ModelCatalog {
  if (env.RUNPAD_MODELS) {
    const models = parseModelList(env.RUNPAD_MODELS).map((spec): ModelEntry => {
      if (spec.provider === 'demo') return demoEntry(spec.id, spec.label ?? DEMO_MODEL_LABEL, { tools: spec.tools, images: spec.images, contextTokens: spec.contextTokens ?? null });
      const sources = PROVIDER_ENV[spec.provider];
      const keyVariable = spec.apiKeyEnv ?? sources.key;
      const baseURL = spec.baseURL ?? (sources.baseURL ? env[sources.baseURL] : undefined);
      if (spec.provider === 'openai-compatible' && !baseURL) throw new Error(`RUNPAD_MODELS: ${spec.id}: an openai-compatible model needs "baseURL" (or OPENAI_BASE_URL)`);
      const model = spec.model ?? (spec.provider === 'openai' ? DEFAULT_OPENAI_MODEL : undefined);
      if (!model) throw new Error(`RUNPAD_MODELS: ${spec.id}: "model" is required for provider ${spec.provider}`);
      return {
        id: spec.id,
        provider: spec.provider,
        model,
        label: spec.label ?? model,
        tools: spec.tools,
        images: spec.images,
        contextTokens: spec.contextTokens ?? null,
        baseURL,
        apiKey: env[keyVariable],
        apiKeyVariable: keyVariable,
        configVariable: 'RUNPAD_MODELS',
        price: spec.price ?? null,
      };
    });
    return { models, defaultId: models[0].id };
  }
  // The single-model shorthand of earlier versions.
  const model = env.RUNPAD_MODEL ?? DEFAULT_OPENAI_MODEL;
  const shared = { id: 'default', model, label: model, tools: true, images: true, contextTokens: null, apiKey: env.OPENAI_API_KEY, apiKeyVariable: 'OPENAI_API_KEY', price: null };
  if (env.OPENAI_BASE_URL) return { models: [{ ...shared, provider: 'openai-compatible', baseURL: env.OPENAI_BASE_URL, configVariable: 'RUNPAD_MODEL (and OPENAI_BASE_URL)' }], defaultId: 'default' };
  if (env.OPENAI_API_KEY) return { models: [{ ...shared, provider: 'openai', configVariable: 'RUNPAD_MODEL' }], defaultId: 'default' };
  return { models: [demoEntry()], defaultId: 'demo' };
}

/** The model with this id, if the operator offers it; the browser's word is never taken for it. */
export function findModel(catalog: ModelCatalog, id: string | null | undefined): ModelEntry | null {
  return id ? (catalog.models.find((m) => m.id === id) ?? null) : null;
}

export function modelChoice(entry: ModelEntry): ModelChoice {
  return { id: entry.id, label: entry.label, provider: entry.provider, tools: entry.tools, images: entry.images, contextTokens: entry.contextTokens };
}

// What an answer records of its model (metadata.model): lib/chat/answer-metadata.ts.
