/**
 * The checks `npm start` runs before the server starts and `npm run doctor` prints
 * (scripts/doctor.mjs bundles this module): the whole configuration (lib/config.server.ts), then whether
 * the services it names answer. An S3 bucket or a Redis that does not answer stops the start:
 * nearly always a wrong URL or credentials, which a running server could only report on every
 * request. The database is asked by the doctor only: a server started while its database is down
 * runs, says so on every page and in /api/health, and recovers when the database is back.
 */
import 'server-only';
import { configurationProblems, getConfig, unknownSettings, type AppConfig } from '@/lib/config.server';
import type { ConfigProblem } from '@/lib/config-problems.server';

export { countProblems, formatProblems, formatWarnings } from '@/lib/config-problems.server';
import { answers, pingRedis } from './dependency-probes.server';
import { createS3BlobStore } from '@/lib/blobs/s3-blob-store.server';

export type DoctorOptions = {
  /** Whether to ask DATABASE_URL's server too (the doctor does; `npm start` does not). */
  database: boolean;
  /** How long each service may take to answer (default 3000 ms). */
  timeoutMs?: number;
};

/** `warnings`: settings that are ignored (an unknown RUNPAD_* name, most often misspelt); they do not stop the start. */
export type DoctorReport = { problems: ConfigProblem[]; warnings: ConfigProblem[]; summary: string[] };

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const problems = configurationProblems();
  const warnings = unknownSettings();
  if (problems.length > 0) return { problems, warnings, summary: [] };
  const config = getConfig();
  const timeoutMs = options.timeoutMs ?? 3_000;
  const checks: Array<Promise<ConfigProblem | null>> = [];
  if (config.redisUrl) {
    const url = config.redisUrl;
    checks.push(
      answers(() => pingRedis(url), timeoutMs).then((result) =>
        result.ok
          ? null
          : {
              variable: 'REDIS_URL',
              problem: `Redis at that URL cannot be reached (${why(result.reason)})`,
              fix: 'start Redis there or correct the URL (redis://[:password@]host:6379); or empty REDIS_URL to keep answer streams in this process and rate limits in the database',
            },
      ),
    );
  }
  if (config.blobStore.kind === 's3') {
    const store = createS3BlobStore(config.blobStore);
    const { bucket } = config.blobStore;
    checks.push(
      answers(() => store.check(), timeoutMs).then((result) =>
        result.ok
          ? null
          : {
              variable: 'S3_BUCKET',
              problem: `the bucket "${bucket}" cannot be reached with these settings (${why(result.reason)})`,
              fix: 'check S3_ENDPOINT, S3_REGION and the credentials (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) and that the bucket exists; or empty S3_BUCKET to keep files under RUNPAD_DATA_DIR/blobs',
            },
      ),
    );
  }
  if (options.database && config.databaseUrl) {
    const url = config.databaseUrl;
    checks.push(
      answers(() => selectOne(url, timeoutMs), timeoutMs).then((result) =>
        result.ok
          ? null
          : {
              variable: 'DATABASE_URL',
              problem: `the Postgres server at that URL cannot be reached (${why(result.reason)})`,
              fix: 'start it or correct the URL (postgres://user:password@host:5432/database); or empty DATABASE_URL for the embedded database under RUNPAD_DATA_DIR',
            },
      ),
    );
  }
  const found = (await Promise.all(checks)).filter((problem): problem is ConfigProblem => problem !== null);
  return { problems: found, warnings, summary: found.length > 0 ? [] : summary(config, options.database) };
}

/** "ECONNREFUSED" rather than "failed (ECONNREFUSED)". */
function why(reason: string): string {
  return reason.replace(/^failed \((.*)\)$/, '$1');
}

async function selectOne(url: string, timeoutMs: number): Promise<void> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(url, { max: 1, connect_timeout: Math.ceil(timeoutMs / 1000), onnotice: () => undefined });
  try {
    await sql`select 1`;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** What the server will start with, in a few lines (no secrets, no URLs: they may carry passwords). */
function summary(config: AppConfig, databaseAsked: boolean): string[] {
  const { models, defaultId } = config.models;
  const modelLine = models.map((m) => `${m.id} (${m.provider}${m.id === defaultId ? ', the default' : ''})`).join(', ');
  const signIn = [config.access.oidc ? `OpenID Connect (${config.access.oidc.name})` : null, config.access.passwordSignIn ? 'email and password' : null].filter(Boolean).join(' and ') || 'none';
  return [
    `models: ${modelLine}`,
    `access: ${config.access.mode}; sign-in: ${signIn}`,
    `database: ${config.databaseUrl ? `Postgres (DATABASE_URL${databaseAsked ? ', answers' : ''})` : `embedded, under ${config.dataDir}`}`,
    `files: ${config.blobStore.kind === 's3' ? `S3 bucket "${config.blobStore.bucket}" (answers)` : `under ${config.blobStore.rootDir}`}`,
    `answer streams and rate limits: ${config.redisUrl ? `Redis (answers; keys under "${config.redisPrefix}")` : 'this process and the database'}`,
  ];
}
