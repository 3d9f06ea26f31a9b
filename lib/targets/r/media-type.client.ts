/**
 * The media type of a file R wrote under /output/, from its name (R does not say). The server
 * decides what it may keep and how it serves it (lib/files/media-types.server.ts); this only names it.
 */
import 'client-only';
const BY_EXTENSION: Readonly<Record<string, string>> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  txt: 'text/plain',
  json: 'application/json',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  svg: 'image/svg+xml',
  zip: 'application/zip',
  rds: 'application/octet-stream',
};

export function mediaTypeOfName(name: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) || 'application/octet-stream';
}
