import type { NextConfig } from 'next';
import { ISOLATION_HEADERS } from './lib/security/isolation-headers';

/**
 * Cross-origin isolation on every response (lib/security/isolation-headers.ts). The worker
 * scripts' own CSP and the page CSP are set per request (lib/assets/serve-engine-assets.server.ts,
 * proxy.ts), because they name the request's origin and a nonce.
 */
const isolationHeaders = ISOLATION_HEADERS.map(({ key, value }) => ({ key, value }));

const nextConfig: NextConfig = {
  // Loaded by Node at run time, not bundled: PGlite ships wasm, rate-limiter-flexible imports its
  // store drivers dynamically, pino, ioredis and prom-client are plain Node packages (prom-client
  // loaded once per process: every route counts into one registry).
  serverExternalPackages: ['@electric-sql/pglite', 'rate-limiter-flexible', 'ioredis', 'pino', 'prom-client'],
  poweredByHeader: false,
  // `npm test` type-checks the whole project, the build's route types included, beside the build
  // (tsconfig.routes.json), so its build skips the same pass, and so does the build `npm start`
  // makes when there is none (a first start waits for it); `npm run build` alone runs it.
  typescript: { ignoreBuildErrors: process.env.RUNPAD_BUILD_SKIP_TYPECHECK === '1' },
  // Turbopack keeps a build cache in .next/cache for the next build; a clone built once and thrown
  // away (CI, .ci/run) spends ~20 s writing it for nothing.
  experimental: { turbopackFileSystemCacheForBuild: process.env.RUNPAD_BUILD_CACHE !== 'off' },
  async headers() {
    return [
      { source: '/:path*', headers: isolationHeaders },
      {
        // webR's lazily read library (vfs/, read in byte ranges) is Next's to serve; the engines'
        // other files are served precompressed before Next sees them (lib/assets/).
        source: '/webr/:version/vfs/:file*',
        headers: [{ key: 'Cache-Control', value: 'public, max-age=31536000, immutable' }],
      },
    ];
  },
};

export default nextConfig;
