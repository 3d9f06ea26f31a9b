/**
 * Answers GET and HEAD for the engines' files (lib/assets/engine-assets.server.ts) before Next sees the
 * request: the precompressed copy the browser accepts (Brotli, else gzip), else the file itself,
 * with Content-Length (the browser compiles wasm as it streams and shows progress), an ETag per
 * representation (304 when it matches), the isolation headers every response carries and, for a
 * worker script, that worker's CSP (lib/security/csp.ts: the sandbox boundary). Anything else,
 * a missing file included, goes on to Next. Installed once per server process from
 * instrumentation.ts (lib/http/server-hooks.server.ts).
 */
import 'server-only';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { getConfig } from '@/lib/config.server';
import { requestOrigin } from '@/lib/request/origin.server';
import { addServerHook } from '@/lib/http/server-hooks.server';
import { logger } from '@/lib/log/logger.server';
import { workerScriptCsp } from '@/lib/security/csp';
import { TARGET_WORKERS } from '@/lib/targets/registry';
import { ISOLATION_HEADERS } from '@/lib/security/isolation-headers';
import { PRECOMPRESSED_ENCODINGS, acceptedEncodings, engineAssetContentType, engineAssetPath, etagMatches } from './engine-assets.server';

export function installEngineAssetServer(publicDir = path.join(process.cwd(), 'public')): void {
  addServerHook('engine-assets', (_server, event, args) => event === 'request' && serveEngineAsset(args[0] as http.IncomingMessage, args[1] as http.ServerResponse, publicDir));
}

type Representation = { file: string; size: number; mtimeMs: number; encoding: string | null };

/** True when it answered the request. */
export function serveEngineAsset(request: http.IncomingMessage, response: http.ServerResponse, publicDir: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = (request.url ?? '/').split('?')[0];
  const asset = engineAssetPath(pathname);
  if (!asset) return false;
  const identity = statFile(path.join(publicDir, ...asset.segments));
  if (!identity) return false; // Next's 404
  const chosen = pickRepresentation(identity, String(request.headers['accept-encoding'] ?? ''));
  const etag = `"${chosen.size.toString(16)}-${Math.floor(chosen.mtimeMs).toString(16)}${chosen.encoding ? `-${chosen.encoding}` : ''}"`;
  for (const { key, value } of ISOLATION_HEADERS) response.setHeader(key, value);
  response.setHeader('Content-Type', engineAssetContentType(asset.segments.at(-1)!));
  response.setHeader('Cache-Control', asset.root.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  response.setHeader('ETag', etag);
  response.setHeader('Vary', 'Accept-Encoding');
  const config = getConfig();
  const csp = workerScriptCsp(pathname, requestOrigin({ get: (name) => headerValue(request, name) }, config), config, TARGET_WORKERS);
  if (csp) {
    response.setHeader('Content-Security-Policy', csp);
    response.setHeader('Vary', 'Accept-Encoding, Host');
  }
  if (chosen.encoding) response.setHeader('Content-Encoding', chosen.encoding);
  if (etagMatches(headerValue(request, 'if-none-match') ?? undefined, etag)) {
    response.writeHead(304).end();
    return true;
  }
  response.setHeader('Content-Length', chosen.size);
  if (request.method === 'HEAD') {
    response.writeHead(200).end();
    return true;
  }
  response.writeHead(200);
  fs.createReadStream(chosen.file)
    .on('error', (error) => {
      logger().warn({ err: error, path: pathname }, 'engine file could not be read while it was sent');
      response.destroy(error);
    })
    .pipe(response);
  return true;
}

function headerValue(request: http.IncomingMessage, name: string): string | null {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : (value ?? null);
}

function statFile(file: string): Omit<Representation, 'encoding'> | null {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() ? { file, size: stat.size, mtimeMs: stat.mtimeMs } : null;
  } catch {
    return null; // absent
  }
}

/** The best precompressed copy the client accepts that is not older than the file, else the file. */
function pickRepresentation(identity: Omit<Representation, 'encoding'>, acceptEncoding: string): Representation {
  const accepted = acceptedEncodings(acceptEncoding);
  for (const { encoding, suffix } of PRECOMPRESSED_ENCODINGS) {
    if (!accepted.has(encoding)) continue;
    const copy = statFile(identity.file + suffix);
    if (copy && copy.mtimeMs >= identity.mtimeMs) return { ...copy, encoding };
  }
  return { ...identity, encoding: null };
}
