/**
 * The models people may pick (ARCHITECTURE.md, "Model loop: providers"): the operator's list from
 * RUNPAD_MODELS, or the single-model shorthand (OPENAI_API_KEY / OPENAI_BASE_URL / RUNPAD_MODEL),
 * or the offline demo model when nothing is configured. Pure: lib/config.server.ts hands it the
 * environment, so every rule is unit-tested (model-catalog.test.ts).
 */
import 'server-only';
import { z } from 'zod';
import { problemLine, type ConfigProblem } from '@/lib/config-problems.server';

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
  /** The model a new conversation starts on (one entry at most); else the first. */
  default: z.boolean().optional(),
  /** USD per million tokens, for the admin page's costs (lib/usage/cost.server.ts). */
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

const LIST_EXAMPLE = '[{"id":"claude","provider":"anthropic","model":"claude-sonnet-4-5"}]';
const SPEC_FIELDS = Object.keys(modelSpecSchema.shape).join(', ');

/** Where in RUNPAD_MODELS: `entry 2 ("claude")`. */
function entryName(list: unknown, index: number): string {
  const id = Array.isArray(list) ? (list[index] as { id?: unknown } | undefined)?.id : undefined;
  return `entry ${index + 1}${typeof id === 'string' ? ` ("${id}")` : ''}`;
}

/** One zod issue of the list, in words. */
function listIssueProblem(issue: z.core.$ZodIssue, list: unknown): ConfigProblem {
  const [index, field] = issue.path;
  const fieldPath = issue.path.slice(1).map(String).join('.');
  const where = typeof index === 'number' ? `${entryName(list, index)}${field === undefined ? '' : `, "${fieldPath}"`}` : 'the list';
  if (issue.code === 'invalid_value' && field === 'provider') {
    const given = Array.isArray(list) && typeof index === 'number' ? (list[index] as { provider?: unknown }).provider : undefined;
    return { variable: 'RUNPAD_MODELS', problem: `${where}: provider ${JSON.stringify(given)} is not one Runpad speaks`, fix: `use one of ${MODEL_PROVIDERS.join(', ')} (openai-compatible with "baseURL" for any OpenAI-compatible server)` };
  }
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    return issue.keys.some((k) => /key|secret|token/i.test(k))
      ? { variable: 'RUNPAD_MODELS', problem: `${where}: unknown field ${keys}; keys never go in the list`, fix: 'put the key in a variable of its own and name that variable in "apiKeyEnv"' }
      : { variable: 'RUNPAD_MODELS', problem: `${where}: unknown field ${keys}`, fix: `remove it; an entry's fields are ${SPEC_FIELDS}` };
  }
  if (issue.code === 'invalid_type' && issue.path.length === 0) return { variable: 'RUNPAD_MODELS', problem: 'not a JSON list', fix: `write a list such as ${LIST_EXAMPLE}` };
  return { variable: 'RUNPAD_MODELS', problem: `${where}: ${issue.message}`, fix: `correct it; an entry's fields are ${SPEC_FIELDS}` };
}

/** Parses RUNPAD_MODELS (JSON): the list, or every problem with it. */
function parseModelListProblems(raw: string): { list: z.infer<typeof modelListSchema> } | { problems: ConfigProblem[] } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { problems: [{ variable: 'RUNPAD_MODELS', problem: 'not valid JSON', fix: `write a JSON list such as ${LIST_EXAMPLE}` }] };
  }
  const parsed = modelListSchema.safeParse(json);
  if (!parsed.success) return { problems: parsed.error.issues.map((issue) => listIssueProblem(issue, json)) };
  return { list: parsed.data };
}

/** Parses RUNPAD_MODELS (JSON); throws with the variable's name and what is wrong. */
export function parseModelList(raw: string): z.infer<typeof modelListSchema> {
  const parsed = parseModelListProblems(raw);
  if ('problems' in parsed) throw new Error(parsed.problems.map(problemLine).join(' '));
  return parsed.list;
}

/**
 * The catalog and every problem with it: an entry that cannot be called (its key's variable
 * unset, a provider Runpad does not speak, no base URL for an OpenAI-compatible server) is a
 * problem of the configuration, refused at start, not found by the first person who picks it.
 */
export function readModelCatalog(env: CatalogEnv): { catalog: ModelCatalog; problems: ConfigProblem[] } {
  if (!env.RUNPAD_MODELS) return { catalog: shorthandCatalog(env), problems: [] };
  const parsed = parseModelListProblems(env.RUNPAD_MODELS);
  if ('problems' in parsed) return { catalog: { models: [demoEntry()], defaultId: 'demo' }, problems: parsed.problems };
  const problems: ConfigProblem[] = [];
  const models = parsed.list.map((spec, index): ModelEntry => {
    const where = entryName(parsed.list, index);
    if (spec.provider === 'demo') return demoEntry(spec.id, spec.label ?? DEMO_MODEL_LABEL, { tools: spec.tools, images: spec.images, contextTokens: spec.contextTokens ?? null });
    const sources = PROVIDER_ENV[spec.provider];
    const keyVariable = spec.apiKeyEnv ?? sources.key;
    const baseURL = spec.baseURL ?? (sources.baseURL ? env[sources.baseURL] : undefined);
    if (spec.provider === 'openai-compatible' && !baseURL) {
      problems.push({ variable: 'RUNPAD_MODELS', problem: `${where}: an openai-compatible model needs "baseURL" (or OPENAI_BASE_URL)`, fix: 'add "baseURL": "http://host:port/v1" to the entry, or set OPENAI_BASE_URL' });
    }
    const model = spec.model ?? (spec.provider === 'openai' ? DEFAULT_OPENAI_MODEL : undefined);
    if (!model) problems.push({ variable: 'RUNPAD_MODELS', problem: `${where}: "model" is required for provider ${spec.provider}`, fix: `add the provider's model name, e.g. "model": "${EXAMPLE_MODEL[spec.provider]}"` });
    // An OpenAI-compatible server may need no key (Ollama, llama.cpp); unless the entry names one.
    const keyRequired = spec.provider !== 'openai-compatible' || spec.apiKeyEnv !== undefined;
    if (keyRequired && !env[keyVariable]) {
      problems.push({
        variable: keyVariable,
        problem: `not set, and RUNPAD_MODELS ${where} (${spec.provider}) takes its key from it`,
        fix: `set ${keyVariable} to the ${spec.provider} API key, or name the variable that holds it in the entry's "apiKeyEnv", or remove the entry`,
      });
    }
    return {
      id: spec.id,
      provider: spec.provider,
      model: model ?? '',
      label: spec.label ?? model ?? spec.id,
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
  const marked = parsed.list.filter((spec) => spec.default);
  if (marked.length > 1) problems.push({ variable: 'RUNPAD_MODELS', problem: `${marked.length} entries are marked "default": true (${marked.map((m) => `"${m.id}"`).join(', ')})`, fix: 'mark one entry at most; without a mark the first entry is the default' });
  return { catalog: { models, defaultId: (marked[0] ?? parsed.list[0]).id }, problems };
}

/** The catalog; throws with RUNPAD_MODELS (or the key's variable) and what is wrong. */
export function modelCatalogFromEnv(env: CatalogEnv): ModelCatalog {
  const { catalog, problems } = readModelCatalog(env);
  if (problems.length > 0) throw new Error(problems.map(problemLine).join(' '));
  return catalog;
}

/** The single-model shorthand of earlier versions, or the offline demo model. */
function shorthandCatalog(env: CatalogEnv): ModelCatalog {
  const model = env.RUNPAD_MODEL ?? DEFAULT_OPENAI_MODEL;
  const shared = { id: 'default', model, label: model, tools: true, images: true, contextTokens: null, apiKey: env.OPENAI_API_KEY, apiKeyVariable: 'OPENAI_API_KEY', price: null };
  if (env.OPENAI_BASE_URL) return { models: [{ ...shared, provider: 'openai-compatible', baseURL: env.OPENAI_BASE_URL, configVariable: 'RUNPAD_MODEL (and OPENAI_BASE_URL)' }], defaultId: 'default' };
  if (env.OPENAI_API_KEY) return { models: [{ ...shared, provider: 'openai', configVariable: 'RUNPAD_MODEL' }], defaultId: 'default' };
  return { models: [demoEntry()], defaultId: 'demo' };
}

const EXAMPLE_MODEL: Record<Exclude<ModelProvider, 'demo'>, string> = {
  openai: 'gpt-5-mini',
  anthropic: 'claude-sonnet-4-5',
  google: 'gemini-2.5-flash',
  'openai-compatible': 'llama3.2',
};

/** The model with this id, if the operator offers it; the browser's word is never taken for it. */
export function findModel(catalog: ModelCatalog, id: string | null | undefined): ModelEntry | null {
  return id ? (catalog.models.find((m) => m.id === id) ?? null) : null;
}

export function modelChoice(entry: ModelEntry): ModelChoice {
  return { id: entry.id, label: entry.label, provider: entry.provider, tools: entry.tools, images: entry.images, contextTokens: entry.contextTokens };
}

// What an answer records of its model (metadata.model): lib/messages/answer-metadata.ts.
