/**
 * A conversation in a project has the project's datasets under /data beside its own files: an
 * uploaded one read through the project (the blob route with the project named, which asks the one
 * authorization rule), a device-kept one from this device by its SHA-256; a file of the
 * conversation's own by the same name comes first, and a dropped copy is checked against whichever
 * is shown.
 */
import { describe, expect, it } from 'vitest';
import { expectedDeviceFile, withProjectDatasets, type ProjectDatasets } from './data-file';

const sha = (c: string) => c.repeat(64);
const project: ProjectDatasets = {
  projectId: '6f1c1b8e-1f7e-4a55-9d3c-1a2b3c4d5e6f',
  name: 'Ventes "Q3"',
  files: [
    { name: 'ventes.csv', sha256: sha('a'), size: 10, mediaType: 'text/csv', location: 'account', columns: null },
    { name: 'clients «Q3».parquet', sha256: sha('b'), size: 20, mediaType: 'application/vnd.apache.parquet', location: 'device', columns: [{ name: 'client', type: 'VARCHAR' }] },
    { name: 'mine.csv', sha256: sha('c'), size: 30, mediaType: 'text/csv', location: 'device', columns: null },
  ],
};

describe('a project’s datasets under /data', () => {
  it('an upload is read through the project, a device-kept one by its hash; the conversation’s own file of the same name comes first', () => {
    const own = [{ name: 'mine.csv', sha256: sha('d'), size: 5, location: 'account' as const }];
    const { files, listed } = withProjectDatasets(own, project);
    expect(files).toEqual([
      { name: 'mine.csv', sha256: sha('d'), location: 'account', url: `/api/blobs/${sha('d')}` },
      { name: 'ventes.csv', sha256: sha('a'), location: 'account', url: `/api/blobs/${sha('a')}?project=${project.projectId}` },
      { name: 'clients «Q3».parquet', sha256: sha('b'), location: 'device' },
    ]);
    // A run that needs the device-kept one asks for the person's own copy, checked against its hash and size.
    expect(expectedDeviceFile(listed, 'clients «Q3».parquet')).toEqual({ sha256: sha('b'), size: 20 });
    expect(expectedDeviceFile(listed, 'mine.csv')).toBeNull();
  });

  it('without a project (or datasets the person may no longer read) only the conversation’s own', () => {
    const own = [{ name: 'a.csv', sha256: sha('e'), size: 1, location: 'device' as const }];
    expect(withProjectDatasets(own, null).files).toEqual([{ name: 'a.csv', sha256: sha('e'), location: 'device' }]);
  });
});
