/**
 * "My datasets": what the library lists, from the two places a person's files live, merged by
 * SHA-256 (the same bytes are one dataset, wherever they are). Shared and pure: the server
 * deduplicates the account's files (lib/files/file-queries.server.ts), the page merges them with the files
 * kept on this device (lib/files/device-files.client.ts).
 */
import { z } from 'zod';

export const accountDatasetSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  name: z.string().min(1).max(300),
  mediaType: z.string().max(200),
  size: z.number().int().nonnegative(),
  /** When it was last added to a conversation (ms since the epoch). */
  addedAt: z.number().int().nonnegative(),
});
export type AccountDataset = z.infer<typeof accountDatasetSchema>;

export const accountDatasetsResponseSchema = z.object({ files: z.array(accountDatasetSchema).max(10_000) });

/** A file kept on this device, as the library reads it (lib/files/device-files.client.ts, `DeviceFile`). */
export type DeviceDataset = { sha256: string; name: string; mediaType: string; size: number; keptAt: number };

/** One dataset of the library: where its bytes are (one or both), the latest name and time. */
export type LibraryEntry = {
  sha256: string;
  name: string;
  mediaType: string;
  size: number;
  onDevice: boolean;
  inAccount: boolean;
  /** The latest of when it was kept here and added in the account. */
  at: number;
};

/** One entry per SHA-256, the newest first wins its name (rows in any order). */
export function newestBySha256<T extends { sha256: string; addedAt: number }>(rows: readonly T[]): T[] {
  const newest = new Map<string, T>();
  for (const row of rows) {
    const seen = newest.get(row.sha256);
    if (!seen || row.addedAt > seen.addedAt) newest.set(row.sha256, row);
  }
  return [...newest.values()].sort((a, b) => b.addedAt - a.addedAt);
}

/** The library's list: device and account files merged by SHA-256, newest first; the name is the one given last. */
export function mergeLibrary(device: readonly DeviceDataset[], account: readonly AccountDataset[]): LibraryEntry[] {
  const entries = new Map<string, LibraryEntry>();
  for (const file of account) entries.set(file.sha256, { sha256: file.sha256, name: file.name, mediaType: file.mediaType, size: file.size, onDevice: false, inAccount: true, at: file.addedAt });
  for (const file of device) {
    const known = entries.get(file.sha256);
    if (!known) entries.set(file.sha256, { sha256: file.sha256, name: file.name, mediaType: file.mediaType, size: file.size, onDevice: true, inAccount: false, at: file.keptAt });
    else entries.set(file.sha256, { ...known, onDevice: true, ...(file.keptAt > known.at && { name: file.name, at: file.keptAt }) });
  }
  return [...entries.values()].sort((a, b) => b.at - a.at);
}

/** Bytes the library's files take: on this device, and in the account. */
export function libraryTotals(entries: readonly LibraryEntry[]): { deviceBytes: number; accountBytes: number } {
  let deviceBytes = 0;
  let accountBytes = 0;
  for (const entry of entries) {
    if (entry.onDevice) deviceBytes += entry.size;
    if (entry.inAccount) accountBytes += entry.size;
  }
  return { deviceBytes, accountBytes };
}
