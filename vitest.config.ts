import { defineConfig } from 'vitest/config';
import path from 'node:path';

export default defineConfig({
  // 'server-only' throws outside React's server condition; server modules are what these tests test.
  resolve: { alias: { '@': path.resolve(import.meta.dirname), 'server-only': path.resolve(import.meta.dirname, 'tests/server-only-stub.ts') } },
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'e2e/**/*.spec.ts', '.next/**', 'bench/**'],
    environment: 'node',
    // Safety nets, not expectations: a fresh PGlite with its migrations took 30 s on a machine at
    // load 23 (the tests wait for states and never time anything).
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
