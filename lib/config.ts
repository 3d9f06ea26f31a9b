/**
 * The one module that reads the environment (server only). Validated with zod at first use so
 * a bad value fails with a message naming the variable. Every variable is documented in
 * .env.example and the README.
 */
import 'server-only';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { RUN_LIMITS, TURN_LIMITS } from './runtime/limits';
import type { ClientConfig } from './client-config';

const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());
const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());

const envSchema = z.object({
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  RUNPAD_MODEL: optionalString,
  PYODIDE_PACKAGE_BASE_URL: optionalUrl,
  RUNPAD_DUCKDB_EXTENSION_URL: optionalUrl,
  RUNPAD_MAX_RUN_TIMEOUT_MS: z.coerce.number().int().positive().default(RUN_LIMITS.maxTimeoutMs),
  RUNPAD_STEP_BUDGET: z.coerce.number().int().min(1).max(TURN_LIMITS.maxStepBudget).default(TURN_LIMITS.defaultStepBudget),
  RUNPAD_DEMO_CHUNK_DELAY_MS: z.coerce.number().int().min(0).default(8),
  RUNPAD_CODE_MODE: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['tools', 'blocks']).default('tools')),
  RUNPAD_MODEL_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(60_000),
  RUNPAD_PUBLIC_ORIGIN: optionalUrl,
  RUNPAD_TRUST_PROXY: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['0', '1', 'true', 'false']).optional()),
  REDIS_URL: optionalUrl,
  S3_BUCKET: optionalString,
  S3_ENDPOINT: optionalUrl,
  S3_REGION: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['0', '1', 'true', 'false']).optional()),
  S3_PREFIX: optionalString,
  RUNPAD_DATA_DIR: z.preprocess((v) => (v === '' ? undefined : v), z.string().default('.data')),
  RUNPAD_MODEL_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  RUNPAD_MODEL_REQUESTS_PER_DAY: z.coerce.number().int().min(1).default(500),
  RUNPAD_GUEST_STORAGE_BYTES: z.coerce.number().int().min(1).default(1_000_000_000),
  RUNPAD_CONVERSATION_STORAGE_BYTES: z.coerce.number().int().min(1).default(500_000_000),
});

export type ModelConfig =
  | { kind: 'openai'; apiKey: string; model: string }
  | { kind: 'compatible'; baseURL: string; apiKey?: string; model: string }
  | { kind: 'demo'; chunkDelayMs: number };

export type AppConfig = {
  model: ModelConfig;
  pyodideVersion: string;
  /** Where the browser loads Pyodide's core from (self-hosted, versioned path). */
  pyodideIndexPath: string;
  /** Where package wheels come from: the official CDN for the installed version, or a mirror. */
  packageBaseUrl: string;
  /**
   * The lock file that lists the available packages: a configured source's own (a mirror written
   * by `npm run pyodide:mirror` carries one), else the copy beside the self-hosted core.
   */
  packageLockUrl: string;
  /** Where the browser loads DuckDB-wasm from (self-hosted, versioned path; scripts/copy-duckdb.mjs). */
  duckdbAssetPath: string;
  /** Where DuckDB's extensions (Parquet, JSON, Excel) come from: DuckDB's repository or a mirror. */
  duckdbExtensionUrl: string;
  maxRunTimeoutMs: number;
  stepBudget: number;
  /** How the model asks for code to run: tool calls, or fenced code blocks (lib/ai/blocks-stream.ts). */
  codeMode: 'tools' | 'blocks';
  /** How long the model may send nothing (before its first chunk, or between chunks). */
  modelIdleTimeoutMs: number;
  /** The origin browsers use (`https://runpad.example`), when configured; see lib/http/origin.ts. */
  publicOrigin: string | null;
  /** Whether X-Forwarded-Proto/-Host come from a proxy the operator trusts. */
  trustProxy: boolean;
  redisUrl: string | null;
  /** Where blob bytes live: files under the data directory, or an S3-compatible bucket. */
  blobStore:
    | { kind: 'filesystem'; rootDir: string; spoolDir: string }
    | { kind: 's3'; bucket: string; endpoint?: string; region: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean; prefix?: string; spoolDir: string };
  limits: { modelRequestsPerMinute: number; modelRequestsPerDay: number; guestStorageBytes: number; conversationStorageBytes: number };
};

const DEFAULT_MODEL = 'gpt-5-mini';
/** DuckDB's own extension repository, used unless RUNPAD_DUCKDB_EXTENSION_URL names a mirror. */
const OFFICIAL_DUCKDB_EXTENSION_URL = 'https://extensions.duckdb.org';

/**
 * DuckDB-wasm's version, which names its directory (scripts/copy-duckdb.mjs). Read from disk at run
 * time: the package exports no package.json, and resolving one of its files statically would make
 * the bundler pull its 34 MB engine into the server build.
 */
function duckdbPackageVersion(): string {
  const file = path.join(process.cwd(), 'node_modules', '@duckdb', 'duckdb-wasm', 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}
let cached: AppConfig | null = null;

/** Variables set to "" (as in a copied .env.example) count as unset, for us and for libraries. */
function dropEmptyVariables(): void {
  for (const name of Object.keys(envSchema.shape)) {
    if (process.env[name] === '') delete process.env[name];
  }
}

export function getConfig(): AppConfig {
  if (cached) return cached;
  dropEmptyVariables();
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  const env = parsed.data;
  const pyodideVersion = createRequire(import.meta.url)('pyodide/package.json').version as string;
  const pyodideIndexPath = `/pyodide/${pyodideVersion}/`;
  const model: ModelConfig = env.OPENAI_BASE_URL
    ? { kind: 'compatible', baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model: env.RUNPAD_MODEL ?? DEFAULT_MODEL }
    : env.OPENAI_API_KEY
      ? { kind: 'openai', apiKey: env.OPENAI_API_KEY, model: env.RUNPAD_MODEL ?? DEFAULT_MODEL }
      : { kind: 'demo', chunkDelayMs: env.RUNPAD_DEMO_CHUNK_DELAY_MS };
  cached = {
    model,
    pyodideVersion,
    pyodideIndexPath,
    packageBaseUrl: env.PYODIDE_PACKAGE_BASE_URL ?? `https://cdn.jsdelivr.net/pyodide/v${pyodideVersion}/full/`,
    packageLockUrl: `${env.PYODIDE_PACKAGE_BASE_URL ?? pyodideIndexPath}pyodide-lock.json`,
    duckdbAssetPath: `/duckdb/${duckdbPackageVersion()}/`,
    duckdbExtensionUrl: (env.RUNPAD_DUCKDB_EXTENSION_URL ?? OFFICIAL_DUCKDB_EXTENSION_URL).replace(/\/+$/, ''),
    maxRunTimeoutMs: env.RUNPAD_MAX_RUN_TIMEOUT_MS,
    stepBudget: env.RUNPAD_STEP_BUDGET,
    modelIdleTimeoutMs: env.RUNPAD_MODEL_IDLE_TIMEOUT_MS,
    codeMode: env.RUNPAD_CODE_MODE,
    publicOrigin: env.RUNPAD_PUBLIC_ORIGIN ? new URL(env.RUNPAD_PUBLIC_ORIGIN).origin : null,
    trustProxy: env.RUNPAD_TRUST_PROXY === '1' || env.RUNPAD_TRUST_PROXY === 'true',
    redisUrl: env.REDIS_URL ?? null,
    blobStore: blobStoreConfig(env),
    limits: {
      modelRequestsPerMinute: env.RUNPAD_MODEL_REQUESTS_PER_MINUTE,
      modelRequestsPerDay: env.RUNPAD_MODEL_REQUESTS_PER_DAY,
      guestStorageBytes: env.RUNPAD_GUEST_STORAGE_BYTES,
      conversationStorageBytes: env.RUNPAD_CONVERSATION_STORAGE_BYTES,
    },
  };
  return cached;
}


function blobStoreConfig(env: z.infer<typeof envSchema>): AppConfig['blobStore'] {
  const dataDir = path.resolve(env.RUNPAD_DATA_DIR);
  const spoolDir = path.join(dataDir, 'spool');
  if (!env.S3_BUCKET) return { kind: 'filesystem', rootDir: path.join(dataDir, 'blobs'), spoolDir };
  return {
    kind: 's3',
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION ?? 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    // Most S3-compatible servers (MinIO, Ceph, s3rver) want path-style URLs.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === '1' || env.S3_FORCE_PATH_STYLE === 'true' : Boolean(env.S3_ENDPOINT),
    prefix: env.S3_PREFIX,
    spoolDir,
  };
}

export function getClientConfig(): ClientConfig {
  const config = getConfig();
  const modelLabel = config.model.kind === 'demo' ? 'Offline demo model' : config.model.model;
  return {
    modelLabel,
    isDemo: config.model.kind === 'demo',
    pyodideIndexPath: config.pyodideIndexPath,
    packageBaseUrl: config.packageBaseUrl,
    packageLockUrl: config.packageLockUrl,
    duckdbAssetPath: config.duckdbAssetPath,
    duckdbExtensionUrl: config.duckdbExtensionUrl,
    maxRunTimeoutMs: config.maxRunTimeoutMs,
    stepBudget: config.stepBudget,
  };
}
