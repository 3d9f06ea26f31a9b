import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capturedLog } from '@/lib/testing/captured-log';
import type { Logger } from '@/lib/log/logger.server';

const PACKAGE_VERSION = (JSON.parse(fs.readFileSync(path.resolve('package.json'), 'utf8')) as { version: string }).version;

afterEach(() => vi.unstubAllEnvs());

describe('GET /api/health on a configuration that cannot work', () => {
  it('answers 503 naming each problem with its fix and the version, without a secret, instead of a 500', async () => {
    vi.resetModules();
    for (const [name, value] of Object.entries({ RUNPAD_ACCESS: 'accounts', RUNPAD_PASSWORD_SIGN_IN: '0', RUNPAD_OIDC_ISSUER: '', RUNPAD_OIDC_CLIENT_ID: '', RUNPAD_MODELS: '[{"id":"claude","provider":"anthropic","model":"claude-sonnet-4-5"}]', ANTHROPIC_API_KEY: '', AUTH_SECRET: 'a-short-secret' })) {
      vi.stubEnv(name, value);
    }
    const { log, lines } = capturedLog();
    (globalThis as unknown as { runpadLogger?: Logger }).runpadLogger = log;
    const { GET } = await import('@/app/api/health/route');
    const response = await GET(new Request('http://app.test/api/health'));
    const text = await response.text();
    expect(response.status).toBe(503);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = JSON.parse(text) as { status: string; version: string; configuration: string[] };
    expect(body.status).toBe('unavailable');
    expect(body.version).toBe(PACKAGE_VERSION);
    expect(body.configuration).toEqual([expect.stringMatching(/^AUTH_SECRET: AUTH_SECRET must be at least 32 characters long\. Fix: set a value of at least 32 characters/)]);
    expect(text).not.toContain('a-short-secret');
    expect(lines.find((l) => l.msg === 'request refused')).toMatchObject({ status: 503, reason: 'unavailable: configuration (AUTH_SECRET)' });

    vi.stubEnv('AUTH_SECRET', 'x'.repeat(40));
    const next = (await (await GET(new Request('http://app.test/api/health'))).json()) as { configuration: string[] };
    expect(next.configuration).toEqual([
      expect.stringMatching(/^ANTHROPIC_API_KEY: not set, and RUNPAD_MODELS entry 1 \("claude"\) \(anthropic\) takes its key from it\. Fix: set ANTHROPIC_API_KEY/),
      expect.stringMatching(/^RUNPAD_ACCESS: accounts requires signing in, but there is no way to sign in .* Fix: set RUNPAD_PASSWORD_SIGN_IN=1/),
    ]);
  });

  it('a request to any API route answers 503 in words naming what to change, not a bare 500', async () => {
    vi.resetModules();
    vi.stubEnv('RUNPAD_ACCESS', 'invite');
    vi.stubEnv('RUNPAD_ALLOWED_EMAILS', '');
    const { route } = await import('@/lib/http/route.server');
    const { getConfig } = await import('@/lib/config.server');
    const GET = route(async () => Response.json(getConfig().access));
    const response = await GET(new Request('http://app.test/api/anything'));
    expect(response.status).toBe(503);
    const body = (await response.json()) as { error: string; code: string };
    expect(body.code).toBe('server:misconfigured');
    expect(body.error).toMatch(/^This Runpad cannot work until whoever runs it changes its configuration: RUNPAD_ALLOWED_EMAILS: empty, and RUNPAD_ACCESS=invite/);
  });

  it('every page answers 503 with what to change and who must change it, not a bare 500', async () => {
    vi.resetModules();
    vi.stubEnv('RUNPAD_ACCESS', 'accounts');
    vi.stubEnv('RUNPAD_PASSWORD_SIGN_IN', 'false');
    vi.stubEnv('RUNPAD_OIDC_ISSUER', '');
    vi.stubEnv('RUNPAD_OIDC_CLIENT_ID', '');
    const { NextRequest } = await import('next/server');
    const { proxy } = await import('@/proxy');
    for (const address of ['/', '/c/0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3', '/sign-in']) {
      const response = await proxy(new NextRequest(`http://app.test${address}`));
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toContain('text/html');
      const html = await response.text();
      expect(html).toContain('This Runpad cannot work until its configuration is changed');
      expect(html).toContain('Whoever runs this server must change the settings below');
      expect(html).toContain('<code>RUNPAD_ACCESS</code>: accounts requires signing in, but there is no way to sign in');
      expect(html).toContain('Fix: set RUNPAD_PASSWORD_SIGN_IN=1');
    }
  });
});
