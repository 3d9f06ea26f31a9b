/**
 * `npm run backup -- FILE`, `npm run restore -- FILE`, `npm run move-to-postgres`: the commands of
 * lib/ops/commands.server.ts on the instance configured by the same environment as the server
 * (lib/config.server.ts). Each prints what it did, or why it did nothing, and exits 0 or 1.
 */
import 'server-only';
import { getConfig } from '@/lib/config.server';
import { makeWritesPrivate } from '@/lib/security/private-files.server';
import { failureLine, runOpsCommand } from './commands.server';

// What the command writes under the data directory (a restored database, blobs, the secret) and the archive are the operator's alone.
makeWritesPrivate();
runOpsCommand(process.argv.slice(2), getConfig, console).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(failureLine(error));
    process.exit(1);
  },
);
