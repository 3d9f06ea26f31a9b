/** What a backup archive holds (manifest.json, its first entry), validated when read back. */
import 'server-only';
import { z } from 'zod';

export const BACKUP_FORMAT = 'runpad-backup';
export const BACKUP_FORMAT_VERSION = 1;

/** The only paths an archive may hold besides manifest.json: tables, blobs by hash, the auth secret. */
export const ARCHIVE_PATH = /^(database\/[a-z_][a-z0-9_]*\.ndjson|blobs\/[0-9a-f]{64}|auth-secret)$/;

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.literal(BACKUP_FORMAT_VERSION),
  createdAt: z.string(),
  appVersion: z.string(),
  database: z.object({
    kind: z.enum(['embedded', 'postgres']),
    /** `select version()` of the database the backup was taken from. */
    server: z.string(),
    /** The newest migration it had (lib/db/migrations/meta/_journal.json tag). */
    migration: z.string(),
    tables: z.array(z.object({ name: z.string().regex(/^[a-z_][a-z0-9_]*$/), rows: z.number().int().min(0) })),
  }),
  blobs: z.object({ store: z.enum(['filesystem', 's3']), count: z.number().int().min(0), missing: z.array(z.string().regex(/^[0-9a-f]{64}$/)) }),
  /** archived: the generated secret is in the archive; environment: AUTH_SECRET was set (keep it); none: there was none yet. */
  authSecret: z.enum(['archived', 'environment', 'none']),
  files: z.array(z.object({ path: z.string().regex(ARCHIVE_PATH), size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});

export type Manifest = z.infer<typeof manifestSchema>;
