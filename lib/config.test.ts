import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** getConfig() caches; each case loads a fresh module with its own environment. */
async function configWith(env: Record<string, string>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return (await import('./config')).getConfig();
}
afterEach(() => vi.unstubAllEnvs());

describe('the one module that reads the environment', () => {
  it('resolves RUNPAD_DATA_DIR once, for the database, the blobs, the spool and the auth secret', async () => {
    const config = await configWith({ RUNPAD_DATA_DIR: 'some/where', DATABASE_URL: '', S3_BUCKET: '', AUTH_SECRET: '' });
    expect(config.dataDir).toBe(path.resolve('some/where'));
    expect(config.databaseUrl).toBeNull();
    expect(config.authSecret).toBeNull();
    expect(config.blobStore).toEqual({ kind: 'filesystem', rootDir: path.join(config.dataDir, 'blobs'), spoolDir: path.join(config.dataDir, 'spool') });
  });

  it('takes DATABASE_URL and AUTH_SECRET, and refuses a short secret naming the variable', async () => {
    const config = await configWith({ DATABASE_URL: 'postgres://u@127.0.0.1:5999/db', AUTH_SECRET: 'x'.repeat(40) });
    expect(config.databaseUrl).toBe('postgres://u@127.0.0.1:5999/db');
    expect(config.authSecret).toBe('x'.repeat(40));
    await expect(configWith({ AUTH_SECRET: 'short' })).rejects.toThrow(/AUTH_SECRET: AUTH_SECRET must be at least 32/);
  });

  it('reads the log level on its own, falling back to info on a bad value', async () => {
    vi.stubEnv('RUNPAD_LOG_LEVEL', 'loud');
    const { logLevel } = await import('./config');
    expect(logLevel()).toBe('info');
    vi.stubEnv('RUNPAD_LOG_LEVEL', 'warn');
    expect(logLevel()).toBe('warn');
  });
});
