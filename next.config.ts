import type { NextConfig } from 'next';

/**
 * Cross-origin isolation on every response (SharedArrayBuffer for the interrupt flag needs it).
 * The worker scripts' own CSP and the page CSP are set per request in proxy.ts, because they
 * name the request's origin and a nonce.
 */
const isolationHeaders = [
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  { key: 'Cross-Origin-Embedder-Policy', value: 'require-corp' },
  { key: 'Cross-Origin-Resource-Policy', value: 'same-origin' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'same-origin' },
];

const nextConfig: NextConfig = {
  // Loaded by Node at run time, not bundled: PGlite ships wasm, rate-limiter-flexible imports its
  // store drivers dynamically, pino and ioredis are plain Node packages.
  serverExternalPackages: ['@electric-sql/pglite', 'rate-limiter-flexible', 'ioredis', 'pino'],
  poweredByHeader: false,
  // `npm test` type-checks the whole project, the build's route types included, beside the build
  // (tsconfig.routes.json), so its build skips the same pass; every other build runs it.
  typescript: { ignoreBuildErrors: process.env.RUNPAD_BUILD_SKIP_TYPECHECK === '1' },
  async headers() {
    return [
      { source: '/:path*', headers: isolationHeaders },
      {
        // Versioned path: a new Pyodide version is a new URL.
        source: '/pyodide/:version/:file*',
        headers: [{ key: 'Cache-Control', value: 'public, max-age=31536000, immutable' }],
      },
      {
        // Versioned path: a new webR version is a new URL.
        source: '/webr/:version/:file*',
        headers: [{ key: 'Cache-Control', value: 'public, max-age=31536000, immutable' }],
      },
      {
        // DuckDB-wasm's engine and module, versioned the same way (scripts/copy-duckdb.mjs).
        source: '/duckdb/:version/:file*',
        headers: [{ key: 'Cache-Control', value: 'public, max-age=31536000, immutable' }],
      },
      {
        source: '/workers/:file*',
        headers: [{ key: 'Cache-Control', value: 'no-cache' }],
      },
    ];
  },
};

export default nextConfig;
