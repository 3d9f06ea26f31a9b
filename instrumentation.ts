/**
 * Runs once when the Next server starts: on SIGTERM/SIGINT the database is closed after Next has
 * finished its in-flight requests (lib/health.ts), whether or not /api/health was ever asked; and
 * every request carries its TCP peer's address (lib/http/peer-address.ts); idle keep-alive
 * connections outlive the clients and proxies that reuse them (lib/http/keep-alive.ts); the
 * engines' files are answered precompressed (lib/assets/engine-asset-server.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { registerShutdown } = await import('./lib/health');
  registerShutdown();
  // The per-address limits need the TCP peer, which a Fetch Request does not carry.
  const { installPeerAddressHeader } = await import('./lib/http/peer-address');
  installPeerAddressHeader();
  const { installKeepAlive } = await import('./lib/http/keep-alive');
  installKeepAlive();
  // The engines' files, precompressed, before Next would compress them again per request.
  const { installEngineAssetServer } = await import('./lib/assets/engine-asset-server');
  installEngineAssetServer();
}
