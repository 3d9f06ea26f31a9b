/**
 * The engines' files the app serves itself (Pyodide, DuckDB-wasm, webR's binaries and our worker
 * bundles: tens of MB a visit), and how. They are compressed once, when the asset scripts copy
 * them (scripts/precompress.mjs writes a `.br` and a `.gz` beside each file it pays to compress),
 * not on every request: Next gzipped pyodide.asm.wasm and duckdb-eh.wasm afresh for each visitor
 * (~0.9 s of server CPU for a first visit that runs SQL), and Brotli at build time is a fifth
 * smaller. Next drops a route's own Content-Encoding, so lib/assets/serve-engine-assets.server.ts answers
 * these paths before Next sees them. webR's lazily read library (`vfs/`, fetched in byte ranges)
 * stays with Next's static files.
 */

import 'server-only';
import roots from './engine-asset-roots.json';

/**
 * Under public/: each root's prefix, how deep its files lie (webR's binaries and its own worker at
 * depth 2, not its library under vfs/), and whether its paths are versioned (immutable) or
 * revalidated each time (the workers' unversioned names). A JSON list, because
 * scripts/precompress.mjs reads the same one.
 */
export type EngineAssetRoot = { prefix: string; depth: number; immutable: boolean };
export const ENGINE_ASSET_ROOTS: readonly EngineAssetRoot[] = roots;

/** Encodings written beside a file, best first (the browser's Accept-Encoding picks). */
export const PRECOMPRESSED_ENCODINGS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

const CONTENT_TYPES: Record<string, string> = {
  '.wasm': 'application/wasm',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.zip': 'application/zip',
};

export function engineAssetContentType(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return (dot >= 0 && CONTENT_TYPES[fileName.slice(dot)]) || 'application/octet-stream';
}

const SAFE_SEGMENT = /^[A-Za-z0-9_+@-][A-Za-z0-9._+@-]*$/;

/**
 * The root and the file's path segments (below public/) when `pathname` names an engine file
 * this module serves, else null (for Next to answer). Only plain names: no dot-segments, no
 * percent-encoding, nothing deeper than the root's files.
 */
export function engineAssetPath(pathname: string): { root: EngineAssetRoot; segments: string[] } | null {
  const segments = pathname.split('/').slice(1);
  const root = ENGINE_ASSET_ROOTS.find((candidate) => candidate.prefix === segments[0]);
  if (!root || root.depth !== segments.length - 1) return null;
  if (!segments.every((segment) => SAFE_SEGMENT.test(segment))) return null;
  return { root, segments };
}

/** Codings named in Accept-Encoding without `q=0`. */
export function acceptedEncodings(header: string): Set<string> {
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  return accepted;
}

/** Whether If-None-Match names this ETag (weakly compared, as for a GET). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag);
}
