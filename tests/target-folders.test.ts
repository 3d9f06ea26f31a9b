import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { targetFolderImports, targetFolderProblems } from './target-folders';

function repositoryFiles(): Map<string, string> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'lib', 'components', 'app'], { encoding: 'utf8' });
  const files = new Map<string, string>();
  for (const file of listed.split('\n')) if (/\.tsx?$/.test(file) && fs.existsSync(file)) files.set(file, fs.readFileSync(file, 'utf8'));
  return files;
}

describe("the page shell and the server know no target's folder", () => {
  it('hold for the code as it is: nothing outside lib/targets/ imports a target folder, but tests of what they test', () => {
    const files = repositoryFiles();
    expect(targetFolderProblems(files)).toEqual([]);
    // The count docs/ARCHITECTURE.md gives ("Targets"): only test files, each testing a target's notebook form.
    expect(targetFolderImports(files).every((line) => /\.test\.tsx?\s→/.test(line))).toBe(true);
  });

  it('names a component, a route and a lib module importing a target folder, by any kind of import; the top of lib/targets and what targets share outside their engines are allowed', () => {
    const files = new Map([
      ['components/chat/chat.tsx', "import { useKernel } from '@/lib/targets/python/use-kernel.client';\nimport { RunsController } from '@/lib/targets/runs.client';\nexport const c = [useKernel, RunsController];"],
      ['components/chat/status.tsx', "import type { KernelState } from '../../lib/targets/python/kernel.client';\nexport type S = KernelState;"],
      ['app/s/page.tsx', "import { TARGETS } from '@/lib/targets/registry';\nexport const p = TARGETS;\nexport const q = import('@/lib/targets/r/capture.R');"],
      ['lib/notebook/to-ipynb.server.ts', "export { dotCellSource } from '@/lib/targets/graphviz/notebook';"],
      ['lib/notebook/to-ipynb.test.ts', "import { SQL_SETUP_SOURCE } from '@/lib/targets/sql/notebook';\nexport const s = SQL_SETUP_SOURCE;"],
      ['lib/targets/sql/runner.client.ts', "import { pythonEngine } from '../python/engine.client';\nexport const e = pythonEngine;"],
      ['lib/targets/runners.client.ts', "import { pythonEngine } from './python/engine.client';\nexport const e = pythonEngine;"],
      ['lib/notebook/requirements.ts', "import { pythonStringLiteral } from '@/lib/targets/shared/python-string-literal';\nexport const l = pythonStringLiteral;"],
      ['components/chat/lockdown.ts', "import { lockDown } from '@/lib/targets/shared/engine/lockdown';\nexport const d = lockDown;"],
    ]);
    expect(targetFolderProblems(files).map((problem) => problem.split(':')[0])).toEqual([
      'components/chat/chat.tsx → lib/targets/python/use-kernel.client',
      'components/chat/status.tsx → lib/targets/python/kernel.client',
      'app/s/page.tsx → lib/targets/r/capture.R',
      'lib/notebook/to-ipynb.server.ts → lib/targets/graphviz/notebook',
      'components/chat/lockdown.ts → lib/targets/shared/engine/lockdown',
    ]);
    expect(targetFolderImports(files)).toContain('lib/notebook/to-ipynb.test.ts → lib/targets/sql/notebook');
  });
});
