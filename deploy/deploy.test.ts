import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_UPLOAD_FILE_BYTES } from '@/lib/config.server';

/**
 * The reverse-proxy examples in deploy/ as the proxies read them. nginx's is run in front of the
 * app by e2e/proxy.spec.ts; Caddy's is checked here by Caddy itself (Debian's package `caddy`).
 */
const CADDYFILE = path.resolve('deploy/caddy/Caddyfile');
const NGINX_SITE = path.resolve('deploy/nginx/runpad.conf');

type Handler = { handler: string; max_size?: number; flush_interval?: number; upstreams?: Array<{ dial: string }>; routes?: Array<{ handle: Handler[] }> };

/** Every handler of the adapted configuration, subroutes included. */
function handlers(list: Handler[]): Handler[] {
  return list.flatMap((h) => [h, ...handlers((h.routes ?? []).flatMap((r) => r.handle))]);
}

describe('deploy/caddy/Caddyfile', () => {
  it('is a valid configuration for Caddy', () => {
    expect(() => execFileSync('caddy', ['validate', '--config', CADDYFILE, '--adapter', 'caddyfile'], { stdio: 'pipe' })).not.toThrow();
  });

  it('streams answers at once, lets the largest upload through and proxies to the app', () => {
    const adapted = JSON.parse(execFileSync('caddy', ['adapt', '--config', CADDYFILE, '--adapter', 'caddyfile'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as {
      apps: { http: { servers: Record<string, { routes: Array<{ handle: Handler[] }> }> } };
    };
    const all = handlers(Object.values(adapted.apps.http.servers).flatMap((server) => server.routes.flatMap((route) => route.handle)));
    const proxy = all.find((h) => h.handler === 'reverse_proxy');
    expect(proxy?.flush_interval).toBe(-1);
    expect(proxy?.upstreams).toEqual([{ dial: '127.0.0.1:3000' }]);
    expect(all.find((h) => h.handler === 'request_body')?.max_size).toBeGreaterThanOrEqual(DEFAULT_UPLOAD_FILE_BYTES);
  });
});

describe('deploy/nginx/runpad.conf', () => {
  it('lets the largest upload through', () => {
    const [, amount, unit] = /^\s*client_max_body_size (\d+)([kmg]?);/im.exec(fs.readFileSync(NGINX_SITE, 'utf8')) ?? [];
    const bytes = Number(amount) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(unit ?? '').toLowerCase() as '' | 'k' | 'm' | 'g'];
    expect(bytes).toBeGreaterThanOrEqual(DEFAULT_UPLOAD_FILE_BYTES);
  });
});
