import { describe, expect, it } from 'vitest';
import { workerCsp } from '@/lib/security/csp';
import { isSameOriginRequest, isSecureOrigin, requestOrigin } from './origin.server';

const headers = (values: Record<string, string>) => new Headers(values);
const plain = { publicOrigin: null, trustProxy: false };

describe('the origin the app answers for', () => {
  it('comes from the Host header, and forwarded headers are ignored unless a proxy is trusted', () => {
    const h = headers({ host: '127.0.0.1:3100', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
    expect(requestOrigin(h, plain)).toBe('http://127.0.0.1:3100');
    expect(requestOrigin(h, { publicOrigin: null, trustProxy: true })).toBe('https://evil.example');
    expect(requestOrigin(h, { publicOrigin: 'https://runpad.example', trustProxy: true })).toBe('https://runpad.example');
  });

  it('refuses a host that would add CSP directives or sources', () => {
    for (const host of ['evil.example; script-src *', 'a b', "x'", 'a.example/path', 'a.example:80:80']) {
      expect(requestOrigin(headers({ host }), plain)).toBeNull();
      expect(requestOrigin(headers({ host: 'ok.example', 'x-forwarded-host': host }), { publicOrigin: null, trustProxy: true })).toBeNull();
    }
    expect(requestOrigin(headers({ host: '[::1]:3000' }), plain)).toBe('http://[::1]:3000');
  });

  it('the worker CSP names only the paths it needs, and no network without a valid origin', () => {
    const csp = workerCsp('http://127.0.0.1:3100', '/pyodide/1.0/', '/mirror/');
    expect(csp).toContain("script-src http://127.0.0.1:3100/pyodide/1.0/ http://127.0.0.1:3100/workers/ 'wasm-unsafe-eval'");
    expect(csp).toContain('connect-src http://127.0.0.1:3100/pyodide/1.0/ http://127.0.0.1:3100/mirror/');
    expect(csp).not.toContain("'self'");
    expect(workerCsp(null, '/pyodide/1.0/', '/mirror/')).not.toContain('connect-src');
  });

  it('lets the worker load DuckDB from its versioned path and extensions from exactly the configured source', () => {
    const csp = workerCsp('http://127.0.0.1:3100', '/pyodide/1.0/', '/mirror/', { assetPath: '/duckdb/1.32.0/', extensionUrl: 'https://ext.example/duckdb' });
    expect(csp).toContain("script-src http://127.0.0.1:3100/pyodide/1.0/ http://127.0.0.1:3100/workers/ http://127.0.0.1:3100/duckdb/1.32.0/ 'wasm-unsafe-eval'");
    expect(csp).toContain('connect-src http://127.0.0.1:3100/pyodide/1.0/ http://127.0.0.1:3100/mirror/ http://127.0.0.1:3100/duckdb/1.32.0/ https://ext.example/duckdb/');
    expect(csp).not.toContain('extensions.duckdb.org');
  });

  it('HTTPS origins get the __Host- cookie', () => {
    expect(isSecureOrigin('https://runpad.example')).toBe(true);
    expect(isSecureOrigin('http://127.0.0.1:3100')).toBe(false);
    expect(isSecureOrigin(null)).toBe(false);
  });
});

describe('unsafe requests from other origins', () => {
  const app = 'http://127.0.0.1:3100';
  it('are refused when Origin or Sec-Fetch-Site name another site, port or scheme', () => {
    expect(isSameOriginRequest(headers({ origin: app, 'sec-fetch-site': 'same-origin' }), app)).toBe(true);
    expect(isSameOriginRequest(headers({ origin: 'http://127.0.0.1:4010', 'sec-fetch-site': 'same-site' }), app)).toBe(false);
    expect(isSameOriginRequest(headers({ origin: 'http://127.0.0.1:4010' }), app)).toBe(false);
    expect(isSameOriginRequest(headers({ 'sec-fetch-site': 'cross-site' }), app)).toBe(false);
    expect(isSameOriginRequest(headers({ origin: 'null' }), app)).toBe(false);
    expect(isSameOriginRequest(headers({ origin: 'https://127.0.0.1:3100' }), app)).toBe(false);
  });
  it('are let through from clients that are not browsers (no Origin, no Sec-Fetch-Site)', () => {
    expect(isSameOriginRequest(headers({}), app)).toBe(true);
  });
});
