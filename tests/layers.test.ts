import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importSpecifiers, layerProblems, readLayers } from './layers';

function repositoryFiles(): Map<string, string> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'lib', 'components', 'app'], { encoding: 'utf8' });
  const files = new Map<string, string>();
  for (const file of listed.split('\n')) if (/\.tsx?$/.test(file) && fs.existsSync(file)) files.set(file, fs.readFileSync(file, 'utf8'));
  return files;
}

const architecture = () => fs.readFileSync('docs/ARCHITECTURE.md', 'utf8');

describe('the layers of lib/ and the import circles', () => {
  it('hold for the code as it is, against the list in docs/ARCHITECTURE.md', () => {
    const floors = readLayers(architecture());
    expect(floors.length).toBeGreaterThan(3);
    expect(layerProblems(repositoryFiles(), floors)).toEqual([]);
  });

  it('name every folder of lib/ on the list, each once', () => {
    const named = readLayers(architecture()).flat();
    const folders = fs.readdirSync('lib', { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => `lib/${entry.name}/`);
    expect(new Set(named).size).toBe(named.length);
    expect([...folders, 'lib/'].filter((folder) => !named.includes(folder))).toEqual([]);
    expect(named.filter((folder) => folder !== 'lib/' && !folders.includes(folder))).toEqual([]);
  });

  it('reads every kind of import the compiler knows, type-only ones too', () => {
    const source = [
      "import 'server-only';",
      "import type { A } from '@/lib/a';",
      "import { type B, c } from \"../b\";",
      "export { d } from './d';",
      "export * from './e';",
      "import f = require('./f');",
      "const g = await import('@/lib/g');",
      "type H = import('./h').H;",
      '// import { x } from "./commented";',
      "const s = \"import { y } from './in-a-string'\";",
    ].join('\n');
    expect(importSpecifiers('lib/x/y.ts', source)).toEqual(['server-only', '@/lib/a', '../b', './d', './e', './f', '@/lib/g', './h']);
  });

  it('names an upward import, a same-floor import, an unlisted folder and a circle through a type-only import', () => {
    const floors = readLayers(
      [
        '## Layout',
        '### Layers',
        'From the ground up:',
        '',
        '1. `lib/runtime/`, `lib/messages/`: the shared words',
        '2. `lib/` (files): format, errors, the configuration',
        '3. `lib/db/`',
        '4. `lib/chat/`, `lib/ai/`',
        '',
        '### After',
        '1. `lib/ignored/`',
      ].join('\n'),
    );
    expect(floors).toEqual([['lib/runtime/', 'lib/messages/'], ['lib/'], ['lib/db/'], ['lib/chat/', 'lib/ai/']]);
    const files = new Map([
      ['lib/config.server.ts', "import { catalog } from '@/lib/ai/model-catalog.server';\nexport const c = catalog;"],
      ['lib/ai/model-catalog.server.ts', "export const catalog = 'ü \"quoted\" \\'x\\'';"],
      ['lib/ai/tools.server.ts', "import { title } from '@/lib/chat/title-ünïcode';\nexport const t = title;"],
      ['lib/chat/title-ünïcode.ts', "export const title = 'タイトル';"],
      ['lib/db/schema.server.ts', "import { c } from '../config.server';\nexport const s = c;"],
      ['lib/runtime/protocol.ts', "import type { Failure } from './run-failure';\nexport type Output = { failure?: Failure };"],
      ['lib/runtime/run-failure.ts', "import type { Output } from './protocol';\nexport type Failure = { output: Output };"],
      ['lib/un listed/x.ts', "import { s } from '@/lib/db/schema.server';\nexport const x = s;"],
      ['components/a.tsx', "export { b } from './b';\nexport const a = 1;"],
      ['components/b.tsx', "import('./a');\nexport const b = 2;"],
      ['lib/db/queries.test.ts', "import { t } from '@/lib/ai/tools.server';\nexport const q = t;"],
    ]);
    const problems = layerProblems(files, floors);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^lib\/config\.server\.ts imports lib\/ai\/model-catalog\.server\.ts, which is on a higher floor/),
        expect.stringMatching(/^lib\/ai\/tools\.server\.ts imports lib\/chat\/title-ünïcode\.ts: lib\/ai\/ and lib\/chat\/ are on the same floor/),
        expect.stringMatching(/^lib\/un listed\/ is on no floor/),
        expect.stringMatching(/^import circle: lib\/runtime\/protocol\.ts → lib\/runtime\/run-failure\.ts/),
        expect.stringMatching(/^import circle: components\/a\.tsx → components\/b\.tsx/),
      ]),
    );
    // Downward imports are fine, and a test file may import what it tests from anywhere.
    expect(problems.filter((p) => p.startsWith('lib/db/'))).toEqual([]);
    expect(problems).toHaveLength(5);
  });
});
