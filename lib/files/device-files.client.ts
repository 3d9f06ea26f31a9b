/**
 * Datasets kept on this device: files in the browser's origin-private file system (OPFS), never
 * uploaded. Page-side only (and usable from a worker: the OPFS API is the same there).
 *
 * Layout, the one place it is written down:
 * - the directory `runpad-datasets/` at the OPFS root;
 * - each dataset is the file `<sha256>` (its SHA-256 in lowercase hex: the same bytes kept twice
 *   are one entry), beside `<sha256>.json`, what the person called it and when it was kept
 *   (`deviceFileMetaSchema`);
 * - a dataset without its `.json` is still listed (named by its hash); a `.json` without its data
 *   is not a dataset and is removed when the list is read.
 *
 * The server knows a kept file only by its name, size, SHA-256 and the summary the model is told;
 * the bytes are read here, in place, by the engines (a lazily read mount, never a whole copy).
 */
import 'client-only';
import { z } from 'zod';
import { isExpectedFile } from '@/lib/security/salted-hash';

export const DEVICE_DATASETS_DIR = 'runpad-datasets';
const SHA256 = /^[0-9a-f]{64}$/;

export const deviceFileMetaSchema = z.object({
  name: z.string().min(1).max(200),
  mediaType: z.string().max(200),
  size: z.number().int().nonnegative(),
  /** When it was kept on this device (ms since the epoch). */
  keptAt: z.number().int().nonnegative(),
});
export type DeviceFileMeta = z.infer<typeof deviceFileMetaSchema>;

export type DeviceFile = DeviceFileMeta & { sha256: string };

/** Whether this browser can keep datasets on the device (OPFS exists: secure contexts, not every private mode). */
export function deviceStorageAvailable(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function';
}

/**
 * The datasets directory, created on first use; null where the browser has no OPFS or refuses it.
 * `writing`: the caller is about to keep a file, and a storage with no room left for even the
 * directory (QuotaExceededError) is thrown as such: that is a full device, not one without storage.
 */
export async function deviceDirectory(writing = false): Promise<FileSystemDirectoryHandle | null> {
  if (!deviceStorageAvailable()) return null;
  try {
    const root = await navigator.storage.getDirectory();
    return await root.getDirectoryHandle(DEVICE_DATASETS_DIR, { create: true });
  } catch (error) {
    if (writing && error instanceof DOMException && error.name === 'QuotaExceededError') throw error;
    return null; // storage disabled or refused (private mode, a policy), or no room for a reader: nothing is kept here
  }
}

/** The kept file with this hash, read in place (a File backed by the device's storage), or null when this device does not have it. */
export async function deviceFile(sha256: string, salts: readonly string[] = []): Promise<File | null> {
  return (await deviceFileHandle(sha256, salts))?.file ?? null;
}

/**
 * The kept file with this hash and its handle (an interpreter reads it through a read-only access
 * handle during runs), or null. With `salts`, `sha256` is a value a share showed: the kept file is
 * the one whose SHA-256 salted so gives it (lib/security/salted-hash.ts).
 */
export async function deviceFileHandle(sha256: string, salts: readonly string[] = []): Promise<{ file: File; handle: FileSystemFileHandle } | null> {
  if (!SHA256.test(sha256)) return null;
  const dir = await deviceDirectory();
  if (!dir) return null;
  const name = salts.length === 0 ? sha256 : await keptUnderSaltedHash(dir, sha256, salts);
  if (name === null) return null;
  try {
    const handle = await dir.getFileHandle(name);
    return { file: await handle.getFile(), handle };
  } catch (error) {
    if (error instanceof DOMException && (error.name === 'NotFoundError' || error.name === 'TypeMismatchError')) return null;
    throw error;
  }
}

/** The name (its SHA-256) of the kept file shown as `shown` with these salts, or null. */
async function keptUnderSaltedHash(dir: FileSystemDirectoryHandle, shown: string, salts: readonly string[]): Promise<string | null> {
  for await (const [name, handle] of dir.entries()) if (handle.kind === 'file' && SHA256.test(name) && (await isExpectedFile(name, { sha256: shown, salts }))) return name;
  return null;
}

/** Everything kept on this device, newest first. */
export async function listDeviceFiles(): Promise<DeviceFile[]> {
  const dir = await deviceDirectory();
  if (!dir) return [];
  const data = new Map<string, File>();
  const metas = new Map<string, unknown>();
  for await (const [name, handle] of dir.entries()) {
    if (handle.kind !== 'file') continue;
    if (SHA256.test(name)) data.set(name, await (handle as FileSystemFileHandle).getFile());
    else if (name.endsWith('.json') && SHA256.test(name.slice(0, -5))) metas.set(name.slice(0, -5), await readJson(handle as FileSystemFileHandle));
  }
  const files: DeviceFile[] = [];
  for (const [sha256, file] of data) {
    const meta = deviceFileMetaSchema.safeParse(metas.get(sha256));
    files.push(meta.success ? { ...meta.data, size: file.size, sha256 } : { sha256, name: sha256.slice(0, 12), mediaType: 'application/octet-stream', size: file.size, keptAt: file.lastModified });
  }
  for (const sha256 of metas.keys()) if (!data.has(sha256)) await dir.removeEntry(`${sha256}.json`).catch(() => undefined); // its data is gone: the record goes too
  return files.sort((a, b) => b.keptAt - a.keptAt);
}

/** Records what the person called a kept file (written after its bytes are complete). */
export async function writeDeviceFileMeta(sha256: string, meta: DeviceFileMeta): Promise<void> {
  const dir = await deviceDirectory(true);
  if (!dir || !SHA256.test(sha256)) throw new Error('This browser cannot keep files on the device.');
  const writable = await (await dir.getFileHandle(`${sha256}.json`, { create: true })).createWritable();
  await writable.write(JSON.stringify(deviceFileMetaSchema.parse(meta)));
  await writable.close();
}

/** A kept file a running cell is reading (its read-only handle holds the file): it cannot be removed until the cell ends. */
export class DeviceFileInUseError extends Error {
  constructor() {
    super('a cell that is running (in this tab or another) is reading it: remove it when the cell has ended, or stop the cell.');
    this.name = 'DeviceFileInUseError';
  }
}

/**
 * Removes a kept file and its record, freeing its space. False when this device did not have it;
 * throws DeviceFileInUseError while a running cell reads it (the record stays with its data).
 */
export async function removeDeviceFile(sha256: string): Promise<boolean> {
  const dir = await deviceDirectory();
  if (!dir || !SHA256.test(sha256)) return false;
  let removed = true;
  try {
    await dir.removeEntry(sha256);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NoModificationAllowedError') throw new DeviceFileInUseError(); // its record stays with it
    if (!(error instanceof DOMException && error.name === 'NotFoundError')) throw error;
    removed = false;
  }
  await dir.removeEntry(`${sha256}.json`).catch(() => undefined); // no record: named by its hash, nothing to remove
  return removed;
}

async function readJson(handle: FileSystemFileHandle): Promise<unknown> {
  try {
    return JSON.parse(await (await handle.getFile()).text());
  } catch {
    return null; // a damaged record: the data is listed by its hash
  }
}
