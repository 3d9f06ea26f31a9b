/**
 * A conversation's dataset as the engines see it: where its bytes live decides how /data/<name>
 * is filled. Shared by the page and the server (pure types).
 * - `account`: uploaded; the bytes come from `url` (the blob route), through the browser's dataset cache.
 * - `device`: kept on the device that added it (lib/files/device-files.client.ts), never uploaded;
 *   read in place, by its SHA-256. Another device, a cleared browser or a share's reader does not
 *   have it: the run fails as `dataset-missing` with reason `on-device`, naming the file.
 */
export type DataFileLocation = 'account' | 'device';

export type DataFile =
  | { name: string; sha256: string; location: 'account'; url: string }
  | { name: string; sha256: string; location: 'device' };
