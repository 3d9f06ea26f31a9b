/**
 * Runs once when the Next server starts: on SIGTERM/SIGINT the database is closed after Next has
 * finished its in-flight requests (lib/health.ts), whether or not /api/health was ever asked.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { registerShutdown } = await import('./lib/health');
  registerShutdown();
}
