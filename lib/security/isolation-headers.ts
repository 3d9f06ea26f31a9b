/**
 * On every response: cross-origin isolation (SharedArrayBuffer for the interrupt flag needs it)
 * and the two headers that keep a response from being read as something else. next.config.ts
 * sets them on what Next serves, lib/assets/serve-engine-assets.server.ts on the engines' files.
 */
export const ISOLATION_HEADERS = [
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  { key: 'Cross-Origin-Embedder-Policy', value: 'require-corp' },
  { key: 'Cross-Origin-Resource-Policy', value: 'same-origin' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'same-origin' },
] as const;
