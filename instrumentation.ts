/**
 * Runs once when the Next server starts: the configuration is checked (a production server with
 * one that cannot work exits 1, naming each problem and its fix); on SIGTERM/SIGINT the database is closed after Next has
 * finished its in-flight requests (lib/health/health.server.ts), whether or not /api/health was ever asked; and
 * every request carries its TCP peer's address (lib/http/peer-address.server.ts); idle keep-alive
 * connections outlive the clients and proxies that reuse them (lib/http/keep-alive.server.ts); the
 * engines' files are answered precompressed (lib/assets/serve-engine-assets.server.ts); a rejection
 * no one handled is logged through the app's log (lib/log/unhandled-rejections.server.ts); what the
 * server writes under its data directory is its own (lib/security/private-files.server.ts), and
 * anything looser already there is named in a warning.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // Everything the server writes under its data directory is its own (0700/0600), whatever umask it was started with.
  const { looserThanPrivate, makeWritesPrivate } = await import('./lib/security/private-files.server');
  makeWritesPrivate();
  // A configuration that cannot work stops a production server here, in words (`npm start` checks
  // before Next starts: scripts/doctor.mjs); a development server goes on, and its pages say what
  // to change (proxy.ts).
  const { configurationProblems } = await import('./lib/config.server');
  const problems = configurationProblems();
  if (problems.length > 0) {
    const { countProblems, formatProblems } = await import('./lib/config-problems.server');
    console.error(formatProblems(problems, `runpad: cannot start: ${countProblems(problems)} in the configuration`));
    if (process.env.NODE_ENV === 'production') process.exit(1);
  }
  // Anything already under the data directory that other local accounts can read is named, with the fix.
  const { logger } = await import('./lib/log/logger.server');
  const { dataDir } = problems.length > 0 ? { dataDir: null } : (await import('./lib/config.server')).getConfig();
  const looser = dataDir ? looserThanPrivate(dataDir) : [];
  if (looser.length > 0) logger().warn({ count: looser.length, paths: looser.slice(0, 20), fix: `chmod -R go= ${dataDir}` }, `the data directory holds ${looser.length} folders or files other local accounts can read or enter; make them Runpad's alone`);
  // A rejection no one handled is logged through our log, not printed whole by Next.
  const { installRejectionLog } = await import('./lib/log/unhandled-rejections.server');
  installRejectionLog();
  const { registerShutdown } = await import('./lib/health/health.server');
  registerShutdown();
  // The per-address limits need the TCP peer, which a Fetch Request does not carry.
  const { installPeerAddressHeader } = await import('./lib/http/peer-address.server');
  installPeerAddressHeader();
  const { installKeepAlive } = await import('./lib/http/keep-alive.server');
  installKeepAlive();
  // The engines' files, precompressed, before Next would compress them again per request.
  const { installEngineAssetServer } = await import('./lib/assets/serve-engine-assets.server');
  installEngineAssetServer();
}
