import { defineConfig } from 'vitest/config';
import path from 'node:path';

export default defineConfig({
  // 'server-only' throws outside React's server condition; server modules are what these tests test.
  resolve: { alias: { '@': path.resolve(import.meta.dirname), 'server-only': path.resolve(import.meta.dirname, 'tests/server-only-stub.ts') } },
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'e2e/**/*.spec.ts', '.next/**', 'bench/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
