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
import { modelCatalogFromEnv, modelChoice, type ModelEntry } from './ai/model-catalog';
import { parseEmailList } from './auth/email-list';

const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());
const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());

const envSchema = z.object({
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  RUNPAD_MODEL: optionalString,
  /** The models people may pick (JSON list; lib/ai/model-catalog.ts validates each entry). */
  RUNPAD_MODELS: optionalString,
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: optionalUrl,
  GOOGLE_GENERATIVE_AI_API_KEY: optionalString,
  GOOGLE_GENERATIVE_AI_BASE_URL: optionalUrl,
  PYODIDE_PACKAGE_BASE_URL: optionalUrl,
  RUNPAD_R_PACKAGE_REPO_URL: optionalUrl,
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
  DATABASE_URL: optionalUrl,
  AUTH_SECRET: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().trim().min(32, 'AUTH_SECRET must be at least 32 characters long.').optional()),
  RUNPAD_MODEL_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  RUNPAD_MODEL_REQUESTS_PER_DAY: z.coerce.number().int().min(1).default(500),
  RUNPAD_GUEST_STORAGE_BYTES: z.coerce.number().int().min(1).default(1_000_000_000),
  RUNPAD_CONVERSATION_STORAGE_BYTES: z.coerce.number().int().min(1).default(500_000_000),
  RUNPAD_ACCESS: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['open', 'accounts', 'invite']).default('open')),
  RUNPAD_ALLOWED_EMAILS: optionalString,
  RUNPAD_ADMIN_EMAILS: optionalString,
  RUNPAD_OIDC_ISSUER: optionalUrl,
  RUNPAD_OIDC_CLIENT_ID: optionalString,
  RUNPAD_OIDC_CLIENT_SECRET: optionalString,
  RUNPAD_OIDC_NAME: optionalString,
  RUNPAD_PASSWORD_SIGN_IN: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['0', '1', 'true', 'false']).optional()),
  RUNPAD_SMTP_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url({ protocol: /^smtps?$/, error: 'RUNPAD_SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example:587' }).optional()),
  RUNPAD_EMAIL_FROM: optionalString,
  RUNPAD_GUESTS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(30),
  RUNPAD_MODEL_REQUESTS_PER_ADDRESS_PER_DAY: z.coerce.number().int().min(1).default(2_000),
  RUNPAD_INSTANCE_MODEL_REQUESTS_PER_DAY: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).optional()),
});

/** One model of the catalog, ready to call (the demo model's streaming pace included). */
export type ModelConfig = ModelEntry & { chunkDelayMs: number };

/** Who may use the instance: guests and accounts, accounts only, or invited accounts only. */
export type AccessMode = 'open' | 'accounts' | 'invite';


const logLevelSchema = z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']);

/**
 * The log level (RUNPAD_LOG_LEVEL, default info), read on its own: the logger must work even when
 * the rest of the environment is invalid, to say so.
 */
export function logLevel(): z.infer<typeof logLevelSchema> {
  const parsed = logLevelSchema.safeParse(process.env.RUNPAD_LOG_LEVEL || undefined);
  return parsed.success ? parsed.data : 'info';
}

export type AppConfig = {
  /** The models people may pick; the first is the default (lib/ai/model-catalog.ts). */
  models: { models: ModelConfig[]; defaultId: string };
  pyodideVersion: string;
  /** Where the browser loads Pyodide's core from (self-hosted, versioned path). */
  pyodideIndexPath: string;
  /** Where package wheels come from: the official CDN for the installed version, or a mirror. */
  packageBaseUrl: string;
  /**
   * The lock file that lists the available packages: a configured source's own (a mirror written
   * by `npm run mirror -- python` carries one), else the copy beside the self-hosted core.
   */
  packageLockUrl: string;
  /** Where the browser loads webR from (self-hosted, versioned path). */
  webrBasePath: string;
  /** Where R packages beyond the base library come from: webR's public repository, or a mirror. */
  rPackageRepoUrl: string;
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
  /** RUNPAD_DATA_DIR, resolved: embedded database, filesystem blobs, spool, generated auth secret. */
  dataDir: string;
  /** A Postgres server (DATABASE_URL), or null for the embedded PGlite under dataDir. */
  databaseUrl: string | null;
  /** AUTH_SECRET when set (at least 32 characters); else one is generated under dataDir. */
  authSecret: string | null;
  /** Where blob bytes live: files under the data directory, or an S3-compatible bucket. */
  blobStore:
    | { kind: 'filesystem'; rootDir: string; spoolDir: string }
    | { kind: 's3'; bucket: string; endpoint?: string; region: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean; prefix?: string; spoolDir: string };
  limits: {
    modelRequestsPerMinute: number;
    modelRequestsPerDay: number;
    guestStorageBytes: number;
    conversationStorageBytes: number;
    /** New guests one client address may start per hour (the address: see lib/http/client-address.ts). */
    guestsPerAddressPerHour: number;
    modelRequestsPerAddressPerDay: number;
    /** The whole instance's model requests per day; null: no ceiling. */
    instanceModelRequestsPerDay: number | null;
  };
  access: {
    mode: AccessMode;
    /** For 'invite': emails and domains (entries without `@` or starting with it) that may sign in. */
    allowedEmails: string[];
    adminEmails: string[];
    /** The OpenID Connect provider people sign in with; null when none is configured. */
    oidc: { issuer: string; clientId: string; clientSecret: string | undefined; name: string } | null;
    /** Email-and-password sign-in (better-auth's own), on unless RUNPAD_PASSWORD_SIGN_IN=0. */
    passwordSignIn: boolean;
  };
  /** Where invitations and password-reset links are mailed from (RUNPAD_SMTP_URL); null: shown to copy only. */
  email: { smtpUrl: string; from: string } | null;
};

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
  // Each entry's key is read from the variable it names (apiKeyEnv) or its provider's default;
  // the catalog throws with RUNPAD_MODELS and what is wrong.
  const catalog = modelCatalogFromEnv(process.env);
  cached = {
    models: { ...catalog, models: catalog.models.map((entry) => ({ ...entry, chunkDelayMs: env.RUNPAD_DEMO_CHUNK_DELAY_MS })) },
    pyodideVersion,
    pyodideIndexPath,
    packageBaseUrl: env.PYODIDE_PACKAGE_BASE_URL ?? `https://cdn.jsdelivr.net/pyodide/v${pyodideVersion}/full/`,
    packageLockUrl: `${env.PYODIDE_PACKAGE_BASE_URL ?? pyodideIndexPath}pyodide-lock.json`,
    webrBasePath: `/webr/${webrVersion()}/`,
    // A trailing slash, so the worker CSP's source expression covers the whole repository.
    rPackageRepoUrl: (env.RUNPAD_R_PACKAGE_REPO_URL ?? DEFAULT_R_PACKAGE_REPO_URL).replace(/\/?$/, '/'),
    duckdbAssetPath: `/duckdb/${duckdbPackageVersion()}/`,
    duckdbExtensionUrl: (env.RUNPAD_DUCKDB_EXTENSION_URL ?? OFFICIAL_DUCKDB_EXTENSION_URL).replace(/\/+$/, ''),
    maxRunTimeoutMs: env.RUNPAD_MAX_RUN_TIMEOUT_MS,
    stepBudget: env.RUNPAD_STEP_BUDGET,
    modelIdleTimeoutMs: env.RUNPAD_MODEL_IDLE_TIMEOUT_MS,
    codeMode: env.RUNPAD_CODE_MODE,
    publicOrigin: env.RUNPAD_PUBLIC_ORIGIN ? new URL(env.RUNPAD_PUBLIC_ORIGIN).origin : null,
    trustProxy: env.RUNPAD_TRUST_PROXY === '1' || env.RUNPAD_TRUST_PROXY === 'true',
    redisUrl: env.REDIS_URL ?? null,
    dataDir: path.resolve(env.RUNPAD_DATA_DIR),
    databaseUrl: env.DATABASE_URL ?? null,
    authSecret: env.AUTH_SECRET ?? null,
    blobStore: blobStoreConfig(env),
    limits: {
      modelRequestsPerMinute: env.RUNPAD_MODEL_REQUESTS_PER_MINUTE,
      modelRequestsPerDay: env.RUNPAD_MODEL_REQUESTS_PER_DAY,
      guestStorageBytes: env.RUNPAD_GUEST_STORAGE_BYTES,
      conversationStorageBytes: env.RUNPAD_CONVERSATION_STORAGE_BYTES,
      guestsPerAddressPerHour: env.RUNPAD_GUESTS_PER_ADDRESS_PER_HOUR,
      modelRequestsPerAddressPerDay: env.RUNPAD_MODEL_REQUESTS_PER_ADDRESS_PER_DAY,
      instanceModelRequestsPerDay: env.RUNPAD_INSTANCE_MODEL_REQUESTS_PER_DAY ?? null,
    },
    access: accessConfig(env),
    email: env.RUNPAD_SMTP_URL ? { smtpUrl: env.RUNPAD_SMTP_URL, from: env.RUNPAD_EMAIL_FROM ?? `Runpad <runpad@${new URL(env.RUNPAD_SMTP_URL).hostname}>` } : null,
  };
  return cached;
}

function accessConfig(env: z.infer<typeof envSchema>): AppConfig['access'] {
  if (env.RUNPAD_OIDC_ISSUER && !env.RUNPAD_OIDC_CLIENT_ID) throw new Error('Invalid environment: RUNPAD_OIDC_CLIENT_ID is required with RUNPAD_OIDC_ISSUER');
  const allowedEmails = parseEmailList(env.RUNPAD_ALLOWED_EMAILS);
  const passwordSignIn = env.RUNPAD_PASSWORD_SIGN_IN !== '0' && env.RUNPAD_PASSWORD_SIGN_IN !== 'false';
  const adminEmails = parseEmailList(env.RUNPAD_ADMIN_EMAILS);
  // Accounts are made with a password or by signing in with the provider (a passkey is added to an account later).
  if (env.RUNPAD_ACCESS !== 'open' && !env.RUNPAD_OIDC_ISSUER && !passwordSignIn) throw new Error(`Invalid environment: RUNPAD_ACCESS=${env.RUNPAD_ACCESS} needs a way to sign in: leave password sign-in on (unset RUNPAD_PASSWORD_SIGN_IN) or configure an OpenID Connect provider (RUNPAD_OIDC_ISSUER, RUNPAD_OIDC_CLIENT_ID)`);
  // Someone must get in first: an allowed email, or an admin who invites and approves the rest.
  if (env.RUNPAD_ACCESS === 'invite' && allowedEmails.length === 0 && adminEmails.length === 0) throw new Error('Invalid environment: RUNPAD_ACCESS=invite needs RUNPAD_ADMIN_EMAILS (admins invite and approve people on /admin) or RUNPAD_ALLOWED_EMAILS');
  return {
    mode: env.RUNPAD_ACCESS,
    allowedEmails,
    adminEmails,
    passwordSignIn,
    oidc:
      env.RUNPAD_OIDC_ISSUER && env.RUNPAD_OIDC_CLIENT_ID
        ? { issuer: env.RUNPAD_OIDC_ISSUER.replace(/\/$/, ''), clientId: env.RUNPAD_OIDC_CLIENT_ID, clientSecret: env.RUNPAD_OIDC_CLIENT_SECRET, name: env.RUNPAD_OIDC_NAME ?? 'single sign-on' }
        : null,
  };
}


/** webR's public package repository (R packages built for WebAssembly). */
export const DEFAULT_R_PACKAGE_REPO_URL = 'https://repo.r-wasm.org/';

/** The installed webR's version (its package.json is not in its exports; a plain path, since bundlers turn require.resolve() into a module id). */
function webrVersion(): string {
  const packageJson = path.join(process.cwd(), 'node_modules/webr/package.json');
  return (JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

function blobStoreConfig(env: z.infer<typeof envSchema>): AppConfig['blobStore'] {
  const dataDir = path.resolve(env.RUNPAD_DATA_DIR); // the one reading of RUNPAD_DATA_DIR
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

/** The model with this id if the operator offers it, else null: the browser's word is checked. */
export function findConfiguredModel(id: string | null | undefined): ModelConfig | null {
  return (id && getConfig().models.models.find((m) => m.id === id)) || null;
}

export function defaultModel(): ModelConfig {
  const { models, defaultId } = getConfig().models;
  return models.find((m) => m.id === defaultId) ?? models[0];
}

export function getClientConfig(): ClientConfig {
  const config = getConfig();
  const fallback = defaultModel();
  return {
    modelLabel: fallback.label,
    isDemo: fallback.provider === 'demo',
    models: config.models.models.map(modelChoice),
    defaultModelId: fallback.id,
    pyodideIndexPath: config.pyodideIndexPath,
    packageBaseUrl: config.packageBaseUrl,
    packageLockUrl: config.packageLockUrl,
    webrBasePath: config.webrBasePath,
    rPackageRepoUrl: config.rPackageRepoUrl,
    duckdbAssetPath: config.duckdbAssetPath,
    duckdbExtensionUrl: config.duckdbExtensionUrl,
    maxRunTimeoutMs: config.maxRunTimeoutMs,
    stepBudget: config.stepBudget,
  };
}
