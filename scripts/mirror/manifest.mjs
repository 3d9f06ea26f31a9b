// runpad-mirror.json, written at the top of a DuckDB or R mirror: what was fetched, from where, and
// the sha256 of each file. DuckDB's extension repository publishes no checksum, so the next run
// compares against this to notice a file that changed at the source under the same name (drift).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const MANIFEST_FILE = 'runpad-mirror.json';

const manifestSchema = z.object({
  kind: z.enum(['duckdb-extensions', 'r-packages']),
  source: z.string(),
  createdAt: z.string(),
  files: z.array(z.object({ path: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().nonnegative() })),
});

/** The manifest of the mirror now at `out`, or null when there is none yet (a first run). */
export function readManifest(out, kind) {
  const file = path.join(out, MANIFEST_FILE);
  if (!fs.existsSync(file)) {
    // Replacing is wholesale: never a directory this command did not write (a mistyped --out).
    if (fs.existsSync(out) && fs.readdirSync(out).length > 0) {
      throw new Error(`${out} exists and is not a mirror written by this command (no ${MANIFEST_FILE}); move it away or choose another --out`);
    }
    return null;
  }
  let parsed;
  try {
    parsed = manifestSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch {
    parsed = { success: false };
  }
  if (!parsed.success || parsed.data.kind !== kind) {
    throw new Error(`${file} is not a ${kind} manifest written by this command; move that directory away or choose another --out`);
  }
  return parsed.data;
}

export function writeManifest(dir, manifest) {
  fs.writeFileSync(path.join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * Files fetched now under the same path as last time but with other bytes. Throws, naming them,
 * unless the operator accepts the change (--accept-changes): a repository without checksums could
 * otherwise swap a file unnoticed.
 */
export function checkDrift(previous, files, acceptChanges) {
  if (!previous) return [];
  const before = new Map(previous.files.map((file) => [file.path, file.sha256]));
  const changed = files.filter((file) => before.has(file.path) && before.get(file.path) !== file.sha256);
  if (changed.length > 0 && !acceptChanges) {
    const list = changed.map((file) => `${file.path} (sha256 was ${before.get(file.path)}, now ${file.sha256})`).join('; ');
    throw new Error(`the source now serves other bytes under names mirrored before: ${list}. If the change is expected, run again with --accept-changes`);
  }
  return changed.map((file) => file.path);
}
