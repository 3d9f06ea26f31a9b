/**
 * The one module that reads the environment (server only). The whole configuration is checked at
 * once (zod for each variable, then the settings that cannot work together: a sign-in mode with no
 * way to sign in, a model whose key is unset): every problem names its variable, what is wrong and
 * what to set (lib/config-problems.server.ts). `npm start` and `npm run doctor` run the same check before
 * the server starts (scripts/doctor.mjs, lib/health/doctor.server.ts); getConfig() throws a ConfigurationError
 * listing them all. Every variable is documented in .env.example and docs/OPERATING.md.
 */
import 'server-only';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { RUN_LIMITS, TURN_LIMITS } from './runtime/limits';
import { readModelCatalog, type ModelEntry } from './model-catalog.server';
import { parseEmailList } from './email-list.server';
import { ConfigurationError, envIssueProblem, type ConfigProblem } from './config-problems.server';
import { modelSeesSchema, type ModelSees } from '@/lib/messages/model-input-schema';

/** The per-file upload limit when RUNPAD_UPLOAD_FILE_BYTES is not set (a reverse proxy in front must accept it: deploy/). */
export const DEFAULT_UPLOAD_FILE_BYTES = 100_000_000;

const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());
const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());

const envSchema = z.object({
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  RUNPAD_MODEL: optionalString,
  /** The models people may pick (JSON list; lib/ai/model-catalog.server.ts validates each entry). */
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
  /** What the model may see of outputs and dropped files (lib/ai/model-sees.server.ts). */
  RUNPAD_MODEL_SEES: z.preprocess((v) => (v === '' ? undefined : v), modelSeesSchema.default('outputs')),
  /** Share links: `on` (anyone with the link, or signed-in people only), `signed-in` (only links for signed-in people), `off` (no links: sharing to people only). */
  RUNPAD_PUBLIC_SHARES: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['on', 'signed-in', 'off']).default('on')),
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
  /** The largest file an account holds (an upload to a conversation or a project); larger files are kept on the person's device. */
  RUNPAD_UPLOAD_FILE_BYTES: z.coerce.number().int().min(1_000).default(DEFAULT_UPLOAD_FILE_BYTES),
  RUNPAD_ACCESS: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['open', 'accounts', 'invite']).default('open')),
  RUNPAD_ALLOWED_EMAILS: optionalString,
  RUNPAD_ADMIN_EMAILS: optionalString,
  RUNPAD_OIDC_ISSUER: optionalUrl,
  RUNPAD_OIDC_CLIENT_ID: optionalString,
  RUNPAD_OIDC_CLIENT_SECRET: optionalString,
  RUNPAD_OIDC_NAME: optionalString,
  /** A claim of the ID token or userinfo whose values are the account's groups, kept in step at each sign-in. */
  RUNPAD_OIDC_GROUPS_CLAIM: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().min(1).max(200).regex(/^[^\s]+$/, 'a claim name has no spaces').optional()),
  /** Email-and-password sign-in (better-auth's own): on unless 0 or false. */
  RUNPAD_PASSWORD_SIGN_IN: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['0', '1', 'true', 'false']).optional()),
  RUNPAD_SMTP_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url({ protocol: /^smtps?$/, error: 'RUNPAD_SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example:587' }).optional()),
  RUNPAD_EMAIL_FROM: optionalString,
  RUNPAD_GUESTS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(30),
  RUNPAD_MODEL_REQUESTS_PER_ADDRESS_PER_DAY: z.coerce.number().int().min(1).default(2_000),
  RUNPAD_INSTANCE_MODEL_REQUESTS_PER_DAY: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).optional()),
  /** Every key the app writes in Redis starts with this (a shared Redis: one prefix per app). */
  RUNPAD_REDIS_PREFIX: z.preprocess((v) => (v === '' ? undefined : v), z.string().max(64).regex(/^\S+$/, 'no spaces').default('runpad:')),
  RUNPAD_METRICS_TOKEN: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().trim().min(16, 'RUNPAD_METRICS_TOKEN must be at least 16 characters long.').optional()),
  RUNPAD_TOKENS_PER_DAY: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).optional()),
});

/**
 * RUNPAD_* names read outside the schema above: the log level (read on its own, `logLevel`),
 * `npm start`'s and the build's own switches (scripts/start.mjs, next.config.ts), and the test
 * suite's (playwright.config.ts, e2e/). Every other RUNPAD_* name in the environment is a mistake,
 * most often a misspelling, and is named at start and by the doctor (`unknownSettings`).
 */
const RUNPAD_SETTINGS_READ_ELSEWHERE = [
  'RUNPAD_LOG_LEVEL',
  'RUNPAD_NO_BUILD',
  'RUNPAD_BUILD_CACHE',
  'RUNPAD_BUILD_SKIP_TYPECHECK',
  'RUNPAD_E2E_APP_SERVERS',
  'RUNPAD_E2E_LONG',
  'RUNPAD_E2E_PORT_OFFSET',
  'RUNPAD_E2E_SLOWNESS',
  'RUNPAD_E2E_TRACE',
  'RUNPAD_E2E_WORKERS',
  'RUNPAD_UNIT_WORKERS',
] as const;

/** Every RUNPAD_* setting Runpad reads. */
export const KNOWN_RUNPAD_SETTINGS: readonly string[] = [...Object.keys(envSchema.shape).filter((name) => name.startsWith('RUNPAD_')), ...RUNPAD_SETTINGS_READ_ELSEWHERE];

/** Edits (a letter added, dropped, changed, or two swapped) from one name to another. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/** The name as a person meant it: no byte-order mark or spaces around it, upper case. */
function plainName(name: string): string {
  return name.replace(/^\uFEFF/, '').trim().toUpperCase();
}

/**
 * Every RUNPAD_* name in `env` that Runpad does not read, with the known setting nearest to it
 * (when one is near enough to be the one meant). Warnings, not problems: the server starts, and
 * `npm start` and `npm run doctor` print them. Names only, never a value.
 */
export function unknownSettings(env: Record<string, string | undefined> = process.env): ConfigProblem[] {
  const known = new Set(KNOWN_RUNPAD_SETTINGS);
  return Object.keys(env)
    .filter((name) => plainName(name).startsWith('RUNPAD_') && !known.has(name))
    .sort()
    .map((name) => {
      const plain = plainName(name);
      const tail = plain.slice('RUNPAD_'.length);
      const [nearest] = KNOWN_RUNPAD_SETTINGS.map((setting) => ({ setting, distance: editDistance(plain, setting) })).sort((a, b) => a.distance - b.distance || a.setting.localeCompare(b.setting));
      // Near enough to be a slip of the keyboard: at most a third of the name's own letters.
      const meant = nearest && nearest.distance <= Math.max(2, Math.floor(tail.length / 3)) ? nearest.setting : null;
      return {
        variable: JSON.stringify(name).slice(1, -1),
        problem: 'not a setting Runpad knows, so it is ignored',
        fix: meant ? `did you mean ${meant}? Rename it to that, or remove it` : 'remove it, or use a setting docs/OPERATING.md lists',
      };
    });
}

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
  /** The models people may pick; the first is the default (lib/ai/model-catalog.server.ts). */
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
  /** How the model asks for code to run: tool calls, or fenced code blocks (lib/ai/blocks-stream.server.ts). */
  codeMode: 'tools' | 'blocks';
  /** The operator's policy of what the model sees; a conversation may only be stricter (lib/ai/model-sees.server.ts). */
  modelSees: ModelSees;
  /** RUNPAD_PUBLIC_SHARES: which share links exist (`off`: none; existing links answer 404 while it is). */
  publicShares: 'on' | 'signed-in' | 'off';
  /** How long the model may send nothing (before its first chunk, or between chunks). */
  modelIdleTimeoutMs: number;
  /**
   * The origin browsers use (`https://runpad.example`), when configured; every absolute URL the
   * server writes starts with it. Required with a mail server or a provider (lib/request/origin.server.ts).
   */
  publicOrigin: string | null;
  /** Whether X-Forwarded-Proto/-Host come from a proxy the operator trusts. */
  trustProxy: boolean;
  redisUrl: string | null;
  /** RUNPAD_REDIS_PREFIX: the start of every Redis key the app writes (default `runpad:`). */
  redisPrefix: string;
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
  /** RUNPAD_UPLOAD_FILE_BYTES: the largest file one upload may hold; a larger dropped file is kept on the device by default. */
  uploadFileBytes: number;
  limits: {
    modelRequestsPerMinute: number;
    modelRequestsPerDay: number;
    guestStorageBytes: number;
    conversationStorageBytes: number;
    /** New guests one client address may start per hour (the address: see lib/request/client-address.server.ts). */
    guestsPerAddressPerHour: number;
    modelRequestsPerAddressPerDay: number;
    /** The whole instance's model requests per day; null: no ceiling. */
    instanceModelRequestsPerDay: number | null;
    /** Model tokens (input and output) each person may use in 24 hours; null: no budget. */
    tokensPerDay: number | null;
  };
  /** The Bearer token that opens GET /api/metrics (RUNPAD_METRICS_TOKEN); null: metrics are off (404). */
  metricsToken: string | null;
  access: {
    mode: AccessMode;
    /** For 'invite': emails and domains (entries without `@` or starting with it) that may sign in. */
    allowedEmails: string[];
    adminEmails: string[];
    /** Email-and-password accounts (RUNPAD_PASSWORD_SIGN_IN, default on). */
    passwordSignIn: boolean;
    /** The OpenID Connect provider people sign in with; null when none is configured. */
    oidc: { issuer: string; clientId: string; clientSecret: string | undefined; name: string; groupsClaim: string | null } | null;
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

/** The configuration from the environment, or every problem that keeps it from working. */
function readConfiguration(): { config: AppConfig; problems: [] } | { config: null; problems: ConfigProblem[] } {
  dropEmptyVariables();
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    // Each variable once, with its first issue; the rules between variables wait for valid values.
    const seen = new Set<string>();
    const problems = parsed.error.issues.filter((issue) => {
      const name = String(issue.path[0]);
      return !seen.has(name) && seen.add(name);
    });
    return { config: null, problems: problems.map((issue) => envIssueProblem(issue, process.env[String(issue.path[0])])) };
  }
  const env = parsed.data;
  const pyodideVersion = createRequire(import.meta.url)('pyodide/package.json').version as string;
  const pyodideIndexPath = `/pyodide/${pyodideVersion}/`;
  // Each entry's key is read from the variable it names (apiKeyEnv) or its provider's default.
  const { catalog, problems: modelProblems } = readModelCatalog(process.env);
  const access = accessConfig(env);
  const problems = [...modelProblems, ...access.problems];
  if (problems.length > 0) return { config: null, problems };
  const config: AppConfig = {
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
    modelSees: env.RUNPAD_MODEL_SEES,
    publicShares: env.RUNPAD_PUBLIC_SHARES,
    publicOrigin: env.RUNPAD_PUBLIC_ORIGIN ? new URL(env.RUNPAD_PUBLIC_ORIGIN).origin : null,
    trustProxy: env.RUNPAD_TRUST_PROXY === '1' || env.RUNPAD_TRUST_PROXY === 'true',
    redisUrl: env.REDIS_URL ?? null,
    redisPrefix: env.RUNPAD_REDIS_PREFIX,
    dataDir: path.resolve(env.RUNPAD_DATA_DIR),
    databaseUrl: env.DATABASE_URL ?? null,
    authSecret: env.AUTH_SECRET ?? null,
    blobStore: blobStoreConfig(env),
    uploadFileBytes: env.RUNPAD_UPLOAD_FILE_BYTES,
    limits: {
      modelRequestsPerMinute: env.RUNPAD_MODEL_REQUESTS_PER_MINUTE,
      modelRequestsPerDay: env.RUNPAD_MODEL_REQUESTS_PER_DAY,
      guestStorageBytes: env.RUNPAD_GUEST_STORAGE_BYTES,
      conversationStorageBytes: env.RUNPAD_CONVERSATION_STORAGE_BYTES,
      guestsPerAddressPerHour: env.RUNPAD_GUESTS_PER_ADDRESS_PER_HOUR,
      modelRequestsPerAddressPerDay: env.RUNPAD_MODEL_REQUESTS_PER_ADDRESS_PER_DAY,
      instanceModelRequestsPerDay: env.RUNPAD_INSTANCE_MODEL_REQUESTS_PER_DAY ?? null,
      tokensPerDay: env.RUNPAD_TOKENS_PER_DAY ?? null,
    },
    metricsToken: env.RUNPAD_METRICS_TOKEN ?? null,
    access: access.access,
    email: env.RUNPAD_SMTP_URL ? { smtpUrl: env.RUNPAD_SMTP_URL, from: env.RUNPAD_EMAIL_FROM ?? `Runpad <runpad@${new URL(env.RUNPAD_SMTP_URL).hostname}>` } : null,
  };
  return { config, problems: [] };
}

/** The configuration; throws a ConfigurationError naming every problem when it cannot work. */
export function getConfig(): AppConfig {
  if (cached) return cached;
  const { config, problems } = readConfiguration();
  if (!config) throw new ConfigurationError(problems);
  cached = config;
  return cached;
}

/** Every problem of the configuration in the environment; none: it can start. */
export function configurationProblems(): ConfigProblem[] {
  if (cached) return [];
  const { config, problems } = readConfiguration();
  if (config) cached = config;
  return problems;
}

function accessConfig(env: z.infer<typeof envSchema>): { access: AppConfig['access']; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  if (env.RUNPAD_OIDC_ISSUER && !env.RUNPAD_OIDC_CLIENT_ID) {
    problems.push({ variable: 'RUNPAD_OIDC_CLIENT_ID', problem: 'not set, and RUNPAD_OIDC_ISSUER is', fix: 'set the client id registered for Runpad at your OpenID Connect provider, or empty RUNPAD_OIDC_ISSUER' });
  }
  if (env.RUNPAD_OIDC_CLIENT_ID && !env.RUNPAD_OIDC_ISSUER) {
    problems.push({ variable: 'RUNPAD_OIDC_ISSUER', problem: 'not set, and RUNPAD_OIDC_CLIENT_ID is', fix: "set your OpenID Connect provider's issuer URL (its discovery document is <issuer>/.well-known/openid-configuration)" });
  }
  // A link mailed or sent through a provider must not take its host from a request (which anyone writes).
  if (env.RUNPAD_OIDC_GROUPS_CLAIM && !env.RUNPAD_OIDC_ISSUER) {
    problems.push({ variable: 'RUNPAD_OIDC_GROUPS_CLAIM', problem: 'set, and no OpenID Connect provider is (RUNPAD_OIDC_ISSUER is empty): no sign-in would carry the claim', fix: 'configure the provider (RUNPAD_OIDC_ISSUER, RUNPAD_OIDC_CLIENT_ID, RUNPAD_OIDC_CLIENT_SECRET), or empty RUNPAD_OIDC_GROUPS_CLAIM' });
  }
  const linksLeave = [env.RUNPAD_SMTP_URL ? 'RUNPAD_SMTP_URL' : null, env.RUNPAD_OIDC_ISSUER ? 'RUNPAD_OIDC_ISSUER' : null].filter((name) => name !== null);
  if (linksLeave.length > 0 && !env.RUNPAD_PUBLIC_ORIGIN) {
    problems.push({
      variable: 'RUNPAD_PUBLIC_ORIGIN',
      problem: `not set, and ${linksLeave.join(' and ')} ${linksLeave.length > 1 ? 'are' : 'is'}: the links Runpad mails (password reset, email verification, invitations) and its sign-in provider's return address would take their host from whatever a request names`,
      fix: 'set RUNPAD_PUBLIC_ORIGIN=https://<the name people reach Runpad at>, e.g. RUNPAD_PUBLIC_ORIGIN=https://runpad.example',
    });
  }
  const allowedEmails = parseEmailList(env.RUNPAD_ALLOWED_EMAILS);
  const adminEmails = parseEmailList(env.RUNPAD_ADMIN_EMAILS);
  const passwordSignIn = env.RUNPAD_PASSWORD_SIGN_IN !== '0' && env.RUNPAD_PASSWORD_SIGN_IN !== 'false';
  // Accounts are made by signing in with the provider or with an email and a password.
  const accountsPossible = Boolean(env.RUNPAD_OIDC_ISSUER) || passwordSignIn;
  if (env.RUNPAD_ACCESS !== 'open' && !accountsPossible) {
    problems.push({
      variable: 'RUNPAD_ACCESS',
      problem: `${env.RUNPAD_ACCESS} requires signing in, but there is no way to sign in (no OpenID Connect provider, and RUNPAD_PASSWORD_SIGN_IN is off)`,
      fix: 'set RUNPAD_PASSWORD_SIGN_IN=1 (email and password), or configure a provider (RUNPAD_OIDC_ISSUER, RUNPAD_OIDC_CLIENT_ID, RUNPAD_OIDC_CLIENT_SECRET), or set RUNPAD_ACCESS=open',
    });
  } else if (adminEmails.length > 0 && !accountsPossible) {
    problems.push({
      variable: 'RUNPAD_ADMIN_EMAILS',
      problem: 'names admins, but no one can make an account (no OpenID Connect provider, and RUNPAD_PASSWORD_SIGN_IN is off)',
      fix: 'set RUNPAD_PASSWORD_SIGN_IN=1, or configure a provider (RUNPAD_OIDC_ISSUER, RUNPAD_OIDC_CLIENT_ID, RUNPAD_OIDC_CLIENT_SECRET), or empty RUNPAD_ADMIN_EMAILS',
    });
  }
  // Someone must get in first: an allowed email, or an admin who invites and approves the rest.
  if (env.RUNPAD_ACCESS === 'invite' && allowedEmails.length === 0 && adminEmails.length === 0) {
    problems.push({
      variable: 'RUNPAD_ALLOWED_EMAILS',
      problem: 'empty, and RUNPAD_ACCESS=invite lets in only who is invited: no one could sign in (and RUNPAD_ADMIN_EMAILS names no admin to invite people)',
      fix: 'set RUNPAD_ADMIN_EMAILS (admins invite and approve people on /admin), or the emails or domains invited, comma-separated (ana@team.example, @team.example), or set RUNPAD_ACCESS=accounts',
    });
  }
  return {
    problems,
    access: {
      mode: env.RUNPAD_ACCESS,
      allowedEmails,
      adminEmails,
      passwordSignIn,
      oidc:
        env.RUNPAD_OIDC_ISSUER && env.RUNPAD_OIDC_CLIENT_ID
          ? { issuer: env.RUNPAD_OIDC_ISSUER.replace(/\/$/, ''), clientId: env.RUNPAD_OIDC_CLIENT_ID, clientSecret: env.RUNPAD_OIDC_CLIENT_SECRET, name: env.RUNPAD_OIDC_NAME ?? 'single sign-on', groupsClaim: env.RUNPAD_OIDC_GROUPS_CLAIM ?? null }
          : null,
    },
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
