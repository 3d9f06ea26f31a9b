import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** getConfig() caches; each case loads a fresh module with its own environment. */
async function configWith(env: Record<string, string>) {
  vi.resetModules();
  vi.unstubAllEnvs();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return (await import('./config.server')).getConfig();
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
    const { logLevel } = await import('./config.server');
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
    await expect(configWith({ ...none, RUNPAD_ACCESS: 'accounts', RUNPAD_PASSWORD_SIGN_IN: '0' })).rejects.toThrow(/RUNPAD_ACCESS: accounts requires signing in, but there is no way to sign in .* Fix: set RUNPAD_PASSWORD_SIGN_IN=1 \(email and password\), or configure a provider/);
    await expect(configWith({ ...none, RUNPAD_ACCESS: 'invite' })).rejects.toThrow(/RUNPAD_ALLOWED_EMAILS: empty, and RUNPAD_ACCESS=invite lets in only who is invited.* Fix: set RUNPAD_ADMIN_EMAILS/);
    expect((await configWith({ ...none, RUNPAD_PASSWORD_SIGN_IN: 'false' })).access.passwordSignIn).toBe(false);
  });

  it('reads the mail server from RUNPAD_SMTP_URL, with a sender, and refuses a URL that is not SMTP', async () => {
    const config = await configWith({ RUNPAD_SMTP_URL: 'smtp://user:pass@mail.team.example:587', RUNPAD_EMAIL_FROM: 'Runpad <runpad@team.example>', RUNPAD_PUBLIC_ORIGIN: 'https://runpad.team.example' });
    expect(config.email).toEqual({ smtpUrl: 'smtp://user:pass@mail.team.example:587', from: 'Runpad <runpad@team.example>' });
    expect((await configWith({ RUNPAD_SMTP_URL: 'smtps://mail.team.example', RUNPAD_EMAIL_FROM: '', RUNPAD_PUBLIC_ORIGIN: 'https://runpad.team.example' })).email?.from).toBe('Runpad <runpad@mail.team.example>');
    await expect(configWith({ RUNPAD_SMTP_URL: 'https://mail.team.example' })).rejects.toThrow(/RUNPAD_SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
  });
});

/** The problems a fresh module finds in this environment (every variable named unset unless given). */
async function problemsWith(env: Record<string, string>) {
  vi.resetModules();
  const blank = ['RUNPAD_MODELS', 'RUNPAD_MODEL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'RUNPAD_ACCESS', 'RUNPAD_ALLOWED_EMAILS', 'RUNPAD_ADMIN_EMAILS', 'RUNPAD_OIDC_ISSUER', 'RUNPAD_OIDC_CLIENT_ID', 'RUNPAD_PASSWORD_SIGN_IN', 'AUTH_SECRET', 'RUNPAD_SMTP_URL', 'RUNPAD_PUBLIC_ORIGIN', 'RUNPAD_PUBLIC_SHARES', 'RUNPAD_OIDC_GROUPS_CLAIM'];
  for (const name of blank) vi.stubEnv(name, '');
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const config = await import('./config.server');
  const problems = config.configurationProblems();
  let thrown: unknown = null;
  try {
    config.getConfig();
  } catch (error) {
    thrown = error;
  }
  return { problems, thrown };
}

const OIDC = { RUNPAD_OIDC_ISSUER: 'https://id.example', RUNPAD_OIDC_CLIENT_ID: 'runpad', RUNPAD_PUBLIC_ORIGIN: 'https://runpad.example' };

describe('a configuration that cannot work is refused at once, one problem per setting, in words', () => {
  it('accepts the default install and a provider-less accounts mode with password sign-in on', async () => {
    expect((await problemsWith({})).problems).toEqual([]);
    expect((await problemsWith({ RUNPAD_ACCESS: 'accounts' })).problems).toEqual([]);
    expect((await problemsWith({ RUNPAD_ACCESS: 'accounts', RUNPAD_PASSWORD_SIGN_IN: '0', ...OIDC })).problems).toEqual([]);
  });

  it('accounts or invite mode with no way to sign in names RUNPAD_ACCESS and both ways to fix it', async () => {
    for (const mode of ['accounts', 'invite']) {
      const { problems, thrown } = await problemsWith({ RUNPAD_ACCESS: mode, RUNPAD_ALLOWED_EMAILS: '@team.example', RUNPAD_PASSWORD_SIGN_IN: 'false' });
      expect(problems).toEqual([
        expect.objectContaining({ variable: 'RUNPAD_ACCESS', problem: expect.stringContaining(`${mode} requires signing in, but there is no way to sign in`), fix: expect.stringMatching(/RUNPAD_PASSWORD_SIGN_IN=1.*RUNPAD_OIDC_ISSUER.*RUNPAD_ACCESS=open/) }),
      ]);
      expect(thrown).toMatchObject({ name: 'ConfigurationError', problems });
      expect(String((thrown as Error).message)).toContain('RUNPAD_ACCESS: ');
    }
  });

  it('an admin list with no way to make accounts names RUNPAD_ADMIN_EMAILS', async () => {
    const { problems } = await problemsWith({ RUNPAD_ADMIN_EMAILS: 'ana@team.example', RUNPAD_PASSWORD_SIGN_IN: '0' });
    expect(problems).toEqual([expect.objectContaining({ variable: 'RUNPAD_ADMIN_EMAILS', problem: expect.stringContaining('no one can make an account'), fix: expect.stringContaining('RUNPAD_PASSWORD_SIGN_IN=1') })]);
  });

  it('invite mode with no one invited names RUNPAD_ALLOWED_EMAILS', async () => {
    const { problems } = await problemsWith({ RUNPAD_ACCESS: 'invite', ...OIDC });
    expect(problems).toEqual([expect.objectContaining({ variable: 'RUNPAD_ALLOWED_EMAILS', problem: expect.stringContaining('no one could sign in'), fix: expect.stringContaining('@team.example') })]);
  });

  it('half an OpenID Connect provider names the missing half', async () => {
    expect((await problemsWith({ RUNPAD_OIDC_ISSUER: 'https://id.example', RUNPAD_PUBLIC_ORIGIN: 'https://runpad.example' })).problems).toEqual([expect.objectContaining({ variable: 'RUNPAD_OIDC_CLIENT_ID', problem: 'not set, and RUNPAD_OIDC_ISSUER is' })]);
    expect((await problemsWith({ RUNPAD_OIDC_CLIENT_ID: 'runpad' })).problems).toEqual([expect.objectContaining({ variable: 'RUNPAD_OIDC_ISSUER', problem: 'not set, and RUNPAD_OIDC_CLIENT_ID is' })]);
  });

  it('a mail server or a provider without RUNPAD_PUBLIC_ORIGIN names it (links would take a request’s host)', async () => {
    const needing: Array<Record<string, string>> = [{ RUNPAD_SMTP_URL: 'smtp://mail.team.example' }, { RUNPAD_OIDC_ISSUER: 'https://id.example', RUNPAD_OIDC_CLIENT_ID: 'runpad' }];
    for (const env of needing) {
      const { problems, thrown } = await problemsWith(env);
      expect(problems).toEqual([expect.objectContaining({ variable: 'RUNPAD_PUBLIC_ORIGIN', problem: expect.stringContaining(Object.keys(env)[0]!), fix: expect.stringContaining('RUNPAD_PUBLIC_ORIGIN=https://') })]);
      expect(thrown).toMatchObject({ name: 'ConfigurationError' });
      expect((await problemsWith({ ...env, RUNPAD_PUBLIC_ORIGIN: 'https://runpad.team.example' })).problems).toEqual([]);
    }
  });

  it('a model entry whose key variable is unset names that variable, the entry and what to set', async () => {
    const models = JSON.stringify([
      { id: 'claude', provider: 'anthropic', model: 'claude-sonnet-4-5' },
      { id: 'local', provider: 'openai-compatible', model: 'llama3.2', baseURL: 'http://127.0.0.1:11434/v1' },
      { id: 'team', provider: 'openai', model: 'gpt-5-mini', apiKeyEnv: 'TEAM_OPENAI_KEY' },
    ]);
    const { problems } = await problemsWith({ RUNPAD_MODELS: models, TEAM_OPENAI_KEY: '' });
    expect(problems).toEqual([
      { variable: 'ANTHROPIC_API_KEY', problem: 'not set, and RUNPAD_MODELS entry 1 ("claude") (anthropic) takes its key from it', fix: expect.stringContaining('set ANTHROPIC_API_KEY to the anthropic API key') },
      { variable: 'TEAM_OPENAI_KEY', problem: 'not set, and RUNPAD_MODELS entry 3 ("team") (openai) takes its key from it', fix: expect.stringContaining('"apiKeyEnv"') },
    ]);
    // An OpenAI-compatible server needs no key unless its entry names one.
    expect((await problemsWith({ RUNPAD_MODELS: models, ANTHROPIC_API_KEY: 'a', TEAM_OPENAI_KEY: 't' })).problems).toEqual([]);
  });

  it('a model entry with a provider Runpad does not speak names the entry and the providers it does', async () => {
    const { problems } = await problemsWith({ RUNPAD_MODELS: '[{"id":"m","provider":"mistral","model":"large"}]' });
    expect(problems).toEqual([{ variable: 'RUNPAD_MODELS', problem: 'entry 1 ("m"), "provider": provider "mistral" is not one Runpad speaks', fix: expect.stringContaining('openai, anthropic, google, openai-compatible, demo') }]);
  });

  it('a list that is not JSON, and two defaults, are named', async () => {
    expect((await problemsWith({ RUNPAD_MODELS: '[{id: claude}]' })).problems).toEqual([{ variable: 'RUNPAD_MODELS', problem: 'not valid JSON', fix: expect.stringContaining('[{"id":"claude"') }]);
    const twoDefaults = JSON.stringify([
      { id: 'a', provider: 'demo', default: true },
      { id: 'b', provider: 'demo', default: true },
    ]);
    expect((await problemsWith({ RUNPAD_MODELS: twoDefaults })).problems).toEqual([expect.objectContaining({ variable: 'RUNPAD_MODELS', problem: '2 entries are marked "default": true ("a", "b")' })]);
  });

  it('bad values name each variable once, what it takes, and never repeat a secret', async () => {
    const { problems } = await problemsWith({ RUNPAD_ACCESS: 'closed', REDIS_URL: '127.0.0.1:6379', RUNPAD_STEP_BUDGET: 'many', AUTH_SECRET: 'short-secret-value' });
    expect(problems).toEqual([
      { variable: 'RUNPAD_STEP_BUDGET', problem: 'not a whole number (it is "many")', fix: expect.stringContaining('whole number') },
      { variable: 'REDIS_URL', problem: 'not a full URL', fix: expect.stringContaining('full URL with its scheme') },
      { variable: 'AUTH_SECRET', problem: 'AUTH_SECRET must be at least 32 characters long.', fix: 'set a value of at least 32 characters, or leave it empty' },
      { variable: 'RUNPAD_ACCESS', problem: 'not one of the values it takes (it is "closed")', fix: 'set one of open, accounts, invite, or leave it empty for the default' },
    ]);
    expect(JSON.stringify(problems)).not.toContain('short-secret-value');
  });

  it('share links and the groups claim: a value that is not one of them, or a claim without a provider, is named with what to set', async () => {
    for (const value of ['no', 'Off ', 'signed_in', '"off"']) {
      expect((await problemsWith({ RUNPAD_PUBLIC_SHARES: value })).problems).toEqual([
        { variable: 'RUNPAD_PUBLIC_SHARES', problem: `not one of the values it takes (it is "${value}")`, fix: 'set one of on, signed-in, off, or leave it empty for the default' },
      ]);
    }
    for (const value of ['on', 'signed-in', 'off']) expect((await problemsWith({ RUNPAD_PUBLIC_SHARES: value })).problems).toEqual([]);
    expect((await problemsWith({ RUNPAD_OIDC_GROUPS_CLAIM: 'groups' })).problems).toEqual([expect.objectContaining({ variable: 'RUNPAD_OIDC_GROUPS_CLAIM', fix: expect.stringContaining('RUNPAD_OIDC_ISSUER') })]);
    expect((await problemsWith({ ...OIDC, RUNPAD_OIDC_GROUPS_CLAIM: 'team groups' })).problems).toEqual([expect.objectContaining({ variable: 'RUNPAD_OIDC_GROUPS_CLAIM' })]);
    expect((await problemsWith({ ...OIDC, RUNPAD_OIDC_GROUPS_CLAIM: 'https://id.example/claims/groups' })).problems).toEqual([]);
  });
});
