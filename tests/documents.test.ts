import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decisionLogProblems, listedLongFiles, listedLongFunctions, longFileProblems, longFunctions, missingPaths, namedPaths, type Repository } from './documents';

function repository(): Repository {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' });
  const files = new Set(listed.split('\n').filter((file) => file && fs.existsSync(file)));
  const ignored = (repositoryPath: string) => {
    try {
      execFileSync('git', ['check-ignore', '-q', '--no-index', repositoryPath]);
      return true;
    } catch {
      return false;
    }
  };
  return { files, ignored };
}

describe('the documents, as the code is', () => {
  it('every path docs/ARCHITECTURE.md names exists', () => {
    expect(missingPaths('docs/ARCHITECTURE.md', fs.readFileSync('docs/ARCHITECTURE.md', 'utf8'), repository())).toEqual([]);
  });

  it('the table of long files lists exactly the files over 300 lines', () => {
    const counts = new Map<string, number>();
    for (const file of repository().files) {
      if (!/^(lib|components|app)\//.test(file) || !/\.tsx?$/.test(file) || /\.(test|spec)\.tsx?$/.test(file)) continue;
      counts.set(file, fs.readFileSync(file, 'utf8').split('\n').length - 1);
    }
    expect(longFileProblems(listedLongFiles(fs.readFileSync('docs/ARCHITECTURE.md', 'utf8')), counts)).toEqual([]);
  });

  it('the table of long functions lists exactly the functions over 150 lines', () => {
    const counts = new Map<string, number>();
    for (const file of repository().files) {
      if (!/^(lib|components|app)\//.test(file) || !/\.tsx?$/.test(file) || /\.(test|spec)\.tsx?$/.test(file) || file.endsWith('.d.ts')) continue;
      for (const [name, lines] of longFunctions(file, fs.readFileSync(file, 'utf8'), 150)) counts.set(name, lines);
    }
    const listed = listedLongFunctions(fs.readFileSync('docs/ARCHITECTURE.md', 'utf8'));
    // Listed with a count of 151 or more, so that a function that shrank below the line is taken off.
    expect(longFileProblems(listed, counts, 150).map((problem) => problem.replace('table of long files', 'table of long functions'))).toEqual([]);
  });

  it('docs/DECISIONS.md holds decisions only, dated, in date order', () => {
    expect(decisionLogProblems(fs.readFileSync('docs/DECISIONS.md', 'utf8'))).toEqual([]);
  });
});

describe('the checks of the documents', () => {
  const repo: Repository = {
    files: new Set(['lib/chat/handle-chat.server.ts', 'bench/README.md', 'lib/targets/python/engine/runpad/sql.py', 'app/api/conversations/[id]/route.ts']),
    ignored: (p) => p.startsWith('public/workers'),
  };

  it('names a stale path in backticks, in prose, in a link and alone, and passes the ones that exist', () => {
    const text = [
      'The route (`lib/chat/handle-chat.ts`) and lib/chat/handle-chat.server.ts, `handle-chat.server.ts`, `handle-chat.ts`.',
      'See [the bench](../bench/README.md) and [gone](../bench/NOTES-gone.md#a-section); `lib/targets/python/engine/runpad/`.',
      'Routes such as `app/api/conversations/[id]/route.ts`, `app/**/route.ts` (a pattern) and `lib/<target>/meta.ts` (a placeholder).',
      'Built: `public/workers/python-boot.js`; outside: `webr-worker.js`. A path ending a sentence: lib/chat/handle-chat.server.ts.',
      'Unicode and quotes around it: «`lib/ünïcode/file.ts`» "lib/x/\'quoted\'.ts"',
    ].join('\n');
    expect(namedPaths('docs/ARCHITECTURE.md', text).map(([, target]) => target)).toEqual(
      expect.arrayContaining(['lib/chat/handle-chat.ts', 'lib/chat/handle-chat.server.ts', 'handle-chat.ts', 'bench/NOTES-gone.md', 'bench/README.md', 'lib/targets/python/engine/runpad/', 'app/api/conversations/[id]/route.ts', 'lib/ünïcode/file.ts']),
    );
    const problems = missingPaths('docs/ARCHITECTURE.md', text, repo);
    expect(problems.map((p) => /`([^`]+)`/.exec(p)![1]).sort()).toEqual(['../bench/NOTES-gone.md', 'handle-chat.ts', 'lib/chat/handle-chat.ts', 'lib/x/', 'lib/ünïcode/file.ts'].sort());
  });

  it('names a long file left off the table, a listed file that is short or gone', () => {
    const architecture = 'Files over 300 lines:\n\n| file | |\n| --- | --- |\n| `lib/a.ts` | one job |\n| `lib/short.ts` | one job |\n| `lib/gone.ts` | two jobs |\n\n## Next\n| `lib/not-a-row.ts` |';
    expect(listedLongFiles(architecture)).toEqual(['lib/a.ts', 'lib/short.ts', 'lib/gone.ts']);
    const problems = longFileProblems(listedLongFiles(architecture), new Map([['lib/a.ts', 301], ['lib/short.ts', 300], ['lib/long ünïcode.ts', 900]]));
    expect(problems).toEqual([
      expect.stringMatching(/^lib\/long ünïcode\.ts has 900 lines and is not in/),
      expect.stringMatching(/^lib\/short\.ts is in the table of long files but has 300 lines/),
      expect.stringMatching(/^lib\/gone\.ts is in the table of long files but does not exist/),
    ]);
  });

  it('measures functions of every form, by name, and reads the table of long functions', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const source = `export function Long() {\n${body(160)}\n}\nconst arrow = () => {\n${body(151)}\n};\nclass K { method() {\n${body(10)}\n} }\nexport default function () {\n${body(200)}\n}\n`;
    expect(longFunctions('components/ünï côde.tsx', source, 150)).toEqual([
      ['components/ünï côde.tsx Long', 162],
      ['components/ünï côde.tsx arrow', 153],
      ['components/ünï côde.tsx (anonymous)', 202],
    ]);
    expect(listedLongFunctions('The functions over 150 lines:\n\n| function | |\n| --- | --- |\n| `components/chat/chat.tsx` `Chat` | two jobs |\n\nAfter the table.\n| `x.ts` `y` |')).toEqual(['components/chat/chat.tsx Chat']);
  });

  it('names an undated section, one out of order, a list of defects or timings, a measured entry and a dangling supersession', () => {
    const text = [
      '# Decisions log',
      '## The first build (2026-11-23)',
      '- **What:** x. Superseded by "Later (2026-11-25)". Also superseded, in part: Superseded by "Later"',
      '  (2026-11-25), the quote on one line, the date after it on the next.',
      '## Defects of the product found by the suite (2026-11-26)',
      '## Timings of the suite (2026-11-26)',
      '- **Measured.** 5 s.',
      '## Earlier (2026-11-24 – 2026-11-25)',
      '## No date',
      '## Later (2026-11-25)',
      '- Superseded by the next one.',
    ].join('\n');
    const problems = decisionLogProblems(text);
    expect(problems).toEqual([
      expect.stringContaining('"Defects of the product found by the suite (2026-11-26)" lists defects'),
      expect.stringContaining('"Timings of the suite (2026-11-26)" lists measurements'),
      expect.stringContaining('"Earlier (2026-11-24 – 2026-11-25)" comes after a section dated 2026-11-26'),
      expect.stringContaining('"No date": a decision\'s section ends with its date'),
      expect.stringContaining('a "Measured" entry'),
      expect.stringContaining('"Superseded by the next one" names no section'),
    ]);
  });
});
