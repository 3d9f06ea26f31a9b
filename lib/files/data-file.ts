/**
 * A conversation's dataset as the engines see it: where its bytes live decides how /data/<name>
 * is filled. Shared by the page and the server (pure types).
 * - `account`: uploaded; the bytes come from `url` (the blob route), through the browser's dataset cache.
 * - `device`: kept on the device that added it (lib/files/device-files.client.ts), never uploaded;
 *   read in place, by its SHA-256. Another device, a cleared browser or a share's reader does not
 *   have it: the run fails as `dataset-missing` with reason `on-device`, naming the file.
 * - `dropped` (the page's own, never stored or listed): a file just dropped, read in place from the
 *   `File` the browser handed the page while it is being kept or uploaded (its hash not known yet);
 *   `dropId` names its mount until then. Once kept, it is a `device` or `account` file like any other.
 */
export type DataFileLocation = 'account' | 'device';

export type DataFile =
  | { name: string; sha256: string; location: 'account'; url: string }
  /** `salts`: `sha256` is the value a share showed, salted with these (lib/security/salted-hash.ts); the kept file is found by computing it. */
  | { name: string; sha256: string; location: 'device'; salts?: readonly string[] }
  | { name: string; location: 'dropped'; dropId: string; file: Blob };

/** A file as an engine holds it: its name and the bytes' identity (their SHA-256, or the drop they came from until kept). */
export function dataFileKey(file: DataFile): string {
  return `${file.name}@${file.location === 'dropped' ? file.dropId : file.sha256}`;
}

/** What names a dropped file's mount until it is kept (lib/files/device-mount.ts): `dropped-` and 32 hex digits. */
export const DROP_ID = /^dropped-[0-9a-f]{32}$/;

/** A fresh drop id. */
export function newDropId(): string {
  return `dropped-${crypto.randomUUID().replaceAll('-', '')}`;
}

/** A file as a page holds it: what the server listed (a conversation's or a share's). */
export type ListedFile = { name: string; sha256: string; location: DataFileLocation; size: number; salts?: readonly string[] };

/**
 * A project's datasets as a conversation's page holds them (lib/chat/project-datasets.server.ts):
 * an uploaded one is read from the blob route with the project named, a device-kept one from this
 * device's own copy, found by its SHA-256 (none: the run asks for it, as for a share's).
 */
export type ProjectDatasets = { projectId: string; name: string; files: Array<ListedFile & { mediaType: string; columns: Array<{ name: string; type: string }> | null }> };

/** The project's datasets under /data beside a conversation's own files (a file of its own by the same name comes first). */
export function withProjectDatasets(own: readonly ListedFile[], project: ProjectDatasets | null): { files: DataFile[]; listed: ListedFile[] } {
  const ownNames = new Set(own.map((file) => file.name));
  const shown = (project?.files ?? []).filter((file) => !ownNames.has(file.name));
  const files = [...toDataFiles(own, (sha256) => `/api/blobs/${sha256}`), ...(project ? toDataFiles(shown, (sha256) => `/api/blobs/${sha256}?project=${project.projectId}`) : [])];
  return { files, listed: [...own, ...shown] };
}

/** The listed files as the engines see them; an uploaded one is read from `url(sha256)`. */
export function toDataFiles(files: readonly ListedFile[], url: (sha256: string) => string): DataFile[] {
  return files.map((file): DataFile => (file.location === 'device' ? { name: file.name, sha256: file.sha256, location: 'device', ...(file.salts?.length ? { salts: file.salts } : {}) } : { name: file.name, sha256: file.sha256, location: 'account', url: url(file.sha256) }));
}

/** The file kept on a device that these files name so, as a dropped file is checked against it; null when there is none. */
export function expectedDeviceFile(files: readonly ListedFile[], name: string): { sha256: string; size: number; salts?: readonly string[] } | null {
  const file = files.find((f) => f.name === name && f.location === 'device');
  return file ? { sha256: file.sha256, size: file.size, ...(file.salts?.length ? { salts: file.salts } : {}) } : null;
}

/**
 * The SQL table a file in /data is (lib/targets/python/engine/runpad/dataset_tables.py, base_table_name):
 * `Sales 2024.csv` → `sales_2024`; a leading digit or `sqlite_` gets `t_`.
 */
export function tableNameOf(file: string): string {
  const stem = file.replace(/\.[^.]+$/, '').toLowerCase().replace(/[^a-z0-9_]/g, '_') || 'data';
  return /^\d/.test(stem) || stem.startsWith('sqlite_') ? `t_${stem}` : stem;
}
