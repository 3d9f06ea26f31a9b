/**
 * A server's start as it touches the data directory, in a process of its own (lib/ops/private-data.test.ts
 * runs it): Next's start hook (instrumentation.ts register), then what the first requests write there:
 * the embedded database, the generated auth secret, an uploaded file's blob. Prints nothing of its
 * own; the app's log lines go to stdout.
 */
import { Readable } from 'node:stream';
import { register } from '@/instrumentation';

await register();
const { getDb } = await import('@/lib/db/client.server');
await getDb();
const { getAuthSecret } = await import('@/lib/auth/secret.server');
getAuthSecret();
const { getBlobStore } = await import('@/lib/files/app-blob-store.server');
await (await getBlobStore()).put(Readable.from([Buffer.from('city,population\nLyon,522000\n')]), { maxBytes: 1_000 });
await (globalThis as unknown as { runpadDb?: Promise<{ close(): Promise<void> }> }).runpadDb?.then((handle) => handle.close());
process.exit(0);
