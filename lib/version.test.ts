import fs from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SettingsDialog } from '@/components/chat/settings-dialog';
import { APP_VERSION } from './version.server';

const packageVersion = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;

describe('the version', () => {
  it('is package.json’s, and the CHANGELOG’s newest entry names it', () => {
    expect(APP_VERSION).toBe(packageVersion);
    const newest = /^## (\S+) — (\d{4}-\d{2}-\d{2})$/m.exec(fs.readFileSync('CHANGELOG.md', 'utf8'));
    expect(newest?.[1]).toBe(packageVersion);
  });

  it('is shown in Settings as "Runpad <version>"', () => {
    const html = renderToStaticMarkup(createElement(SettingsDialog, { open: true, onClose: () => undefined, maxTimeoutMs: 60_000, version: APP_VERSION, operatorModelSees: 'outputs', signedIn: false }));
    expect(html).toContain(`Runpad ${packageVersion}`);
  });
  // /api/health's `version` is asserted where health is tested: lib/health-configuration.test.ts,
  // lib/chaos.test.ts and e2e/lifecycle.spec.ts.
});
