/**
 * Test-only helper: starts s3rver, a real S3-compatible HTTP server backed by a temp directory,
 * on a free local port, so the S3 blob store can be tested without network access.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export type S3TestServer = {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
};

/** s3rver accepts any request signed with these fixed credentials. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3TestServer(bucket = 'runpad-test'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'runpad-s3rver-'));
  const server = new S3rver({
    port: 0, // the OS picks a free port
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  try {
    const { port } = await server.run();
    return {
      endpoint: `http://127.0.0.1:${port}`,
      bucket,
      ...CREDENTIALS,
      async stop() {
        await server.close();
        await rm(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}
