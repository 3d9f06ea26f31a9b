import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SettingsDialog } from '@/components/chat/settings-dialog';
import { APP_VERSION } from './version';

const packageVersion = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;

describe('the version', () => {
  it('is package.json’s, and the CHANGELOG’s newest entry names it', () => {
    expect(APP_VERSION).toBe(packageVersion);
    const newest = /^## (\S+) — (\d{4}-\d{2}-\d{2})$/m.exec(fs.readFileSync('CHANGELOG.md', 'utf8'));
    expect(newest?.[1]).toBe(packageVersion);
  });

  it('is shown in Settings as "Runpad <version>"', () => {
    const html = renderToStaticMarkup(createElement(SettingsDialog, { open: true, onClose: () => undefined, maxTimeoutMs: 60_000, version: APP_VERSION }));
    expect(html).toContain(`Runpad ${packageVersion}`);
  });

  describe('GET /api/health', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-version-'));
    afterAll(async () => {
      const app = globalThis as unknown as { runpadDb?: Promise<{ close: () => Promise<void> }>; runpadBlobStore?: unknown };
      await app.runpadDb?.then((handle) => handle.close());
      app.runpadDb = undefined;
      app.runpadBlobStore = undefined;
      vi.unstubAllEnvs();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    // Ready or not (a first embedded database may take longer than a check's limit), the answer names the version.
    it('reports it beside the checks', async () => {
      vi.stubEnv('RUNPAD_DATA_DIR', dataDir);
      vi.stubEnv('DATABASE_URL', '');
      vi.stubEnv('REDIS_URL', '');
      vi.stubEnv('S3_BUCKET', '');
      vi.resetModules();
      const { GET } = await import('@/app/api/health/route');
      const response = await GET(new Request('http://app.test/api/health'));
      expect(await response.json()).toMatchObject({ status: expect.any(String), version: packageVersion, database: expect.any(String), blobStore: expect.any(String) });
    });
  });
});
