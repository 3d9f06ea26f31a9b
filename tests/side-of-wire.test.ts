import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sideProblems } from './side-of-wire';

function repositoryFiles(): Map<string, string> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'lib', 'components', 'app'], { encoding: 'utf8' });
  const files = new Map<string, string>();
  for (const file of listed.split('\n')) if (/\.tsx?$/.test(file) && fs.existsSync(file)) files.set(file, fs.readFileSync(file, 'utf8'));
  return files;
}

describe('the side of the wire, from the file names', () => {
  it('holds for the code as it is', () => {
    expect(sideProblems(repositoryFiles())).toEqual([]);
  });

  it('names a page module importing a server one, a shared module importing a side, a missing marker, the layers', () => {
    const files = new Map([
      ['lib/db/client.server.ts', "import 'server-only';\nimport postgres from 'postgres';\nexport const db = postgres();"],
      ['lib/db/queries/titles.server.ts', "import 'server-only';\nimport { shownTitle } from '@/lib/chat/shown-title';\nexport const t = shownTitle;"],
      ['lib/chat/shown-title.ts', 'export const shownTitle = 1;'],
      ['lib/blobs/store.server.ts', "import 'server-only';\nimport { db } from '@/lib/db/client.server';\nexport const s = db;"],
      ['lib/runtime/plan.ts', "import { r } from '@/lib/targets/registry';\nexport const p = r;"],
      ['lib/targets/registry.ts', "import { p } from '@/lib/runtime/plan';\nexport const r = p;"],
      ['lib/targets/r/notebook.ts', "import { R_MISSING } from '@/lib/notebook/requirements';\nexport const m = R_MISSING;"],
      ['lib/notebook/requirements.ts', 'export const R_MISSING = 1;'],
      ['lib/files/sniff.ts', "import fs from 'node:fs';\nimport { db } from '@/lib/db/client.server';\nexport const x = [fs, db];"],
      ['lib/files/cache.client.ts', 'export const c = caches;'],
      ['lib/files/upload.server.ts', 'export const u = 1;'],
      ['components/chat/chat.tsx', "'use client';\nimport { db } from '@/lib/db/client.server';\nimport type { s } from '@/lib/blobs/store.server';\nexport const c = db;"],
      ['components/chat/boot.tsx', "import { headers } from 'next/headers';\nexport async function Boot() { return (await headers()).get('x-nonce'); }"],
      ['components/chat/boot.server.tsx', "import 'server-only';\nimport { headers } from 'next/headers';\nexport async function Boot() { return (await headers()).get('x-nonce'); }"],
    ]);
    const problems = sideProblems(files);
    expect(problems).toEqual(
      expect.arrayContaining([
        'components/chat/chat.tsx: page-side code imports the server module lib/db/client.server.ts.',
        "components/chat/boot.tsx: page-side code imports the server package 'next/headers'; a server component is named .server.tsx.",
        'lib/blobs/store.server.ts: blobs and the database import each other (lib/db/client.server.ts).',
        expect.stringContaining('lib/targets/r/notebook.ts: a target imports the notebook exporter (lib/notebook/requirements.ts)'),
        expect.stringContaining("lib/files/sniff.ts: a shared module imports the server package 'node:fs'"),
        expect.stringContaining('lib/files/sniff.ts: a shared module imports the server module lib/db/client.server.ts'),
        "lib/files/cache.client.ts: a .client module must import 'client-only'.",
        "lib/files/upload.server.ts: a .server module must import 'server-only'.",
      ]),
    );
    // A type-only import is erased: the page's type import of a server module is not a problem.
    expect(problems.filter((p) => p.includes('store.server.ts') && p.startsWith('components/'))).toEqual([]);
    // A server component named so may read the request's headers.
    expect(problems.filter((p) => p.startsWith('components/chat/boot.server.tsx'))).toEqual([]);
  });
});
