import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** getConfig() caches; each case loads a fresh module with its own environment. */
async function configWith(env: Record<string, string>) {
  vi.resetModules();
  vi.unstubAllEnvs();
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

  it('lets accounts and invite modes run on password sign-in alone, and refuses a mode nobody can sign in to, naming what to set', async () => {
    const none = { RUNPAD_OIDC_ISSUER: '', RUNPAD_OIDC_CLIENT_ID: '', RUNPAD_ALLOWED_EMAILS: '', RUNPAD_ADMIN_EMAILS: '', RUNPAD_PASSWORD_SIGN_IN: '', RUNPAD_SMTP_URL: '', RUNPAD_EMAIL_FROM: '' };
    const accounts = await configWith({ ...none, RUNPAD_ACCESS: 'accounts' });
    expect(accounts.access).toMatchObject({ mode: 'accounts', passwordSignIn: true, oidc: null });
    expect(accounts.email).toBeNull();
    const invite = await configWith({ ...none, RUNPAD_ACCESS: 'invite', RUNPAD_ADMIN_EMAILS: 'boss@team.example' });
    expect(invite.access).toMatchObject({ mode: 'invite', adminEmails: ['boss@team.example'], allowedEmails: [] });
    await expect(configWith({ ...none, RUNPAD_ACCESS: 'accounts', RUNPAD_PASSWORD_SIGN_IN: '0' })).rejects.toThrow(/RUNPAD_ACCESS=accounts needs a way to sign in: leave password sign-in on \(unset RUNPAD_PASSWORD_SIGN_IN\) or configure an OpenID Connect provider/);
    await expect(configWith({ ...none, RUNPAD_ACCESS: 'invite' })).rejects.toThrow(/RUNPAD_ACCESS=invite needs RUNPAD_ADMIN_EMAILS/);
    expect((await configWith({ ...none, RUNPAD_PASSWORD_SIGN_IN: 'false' })).access.passwordSignIn).toBe(false);
  });

  it('reads the mail server from RUNPAD_SMTP_URL, with a sender, and refuses a URL that is not SMTP', async () => {
    const config = await configWith({ RUNPAD_SMTP_URL: 'smtp://user:pass@mail.team.example:587', RUNPAD_EMAIL_FROM: 'Runpad <runpad@team.example>' });
    expect(config.email).toEqual({ smtpUrl: 'smtp://user:pass@mail.team.example:587', from: 'Runpad <runpad@team.example>' });
    expect((await configWith({ RUNPAD_SMTP_URL: 'smtps://mail.team.example', RUNPAD_EMAIL_FROM: '' })).email?.from).toBe('Runpad <runpad@mail.team.example>');
    await expect(configWith({ RUNPAD_SMTP_URL: 'https://mail.team.example' })).rejects.toThrow(/RUNPAD_SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
  });
});
