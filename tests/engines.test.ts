import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TARGET_IDS } from '@/lib/targets/registry';
import { engineFolders, workerScripts } from '../scripts/engine-sources.mjs';
import { engineProblems, runnerNameProblems } from './engines';

/** Every file git knows or would add, with its text for the code. */
function repositoryFiles(): Map<string, string> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' });
  const files = new Map<string, string>();
  for (const file of listed.split('\n')) {
    if (!file || !fs.existsSync(file)) continue;
    files.set(file, /\.(tsx?|mts|mjs)$/.test(file) ? fs.readFileSync(file, 'utf8') : '');
  }
  return files;
}

describe('each engine in its target’s folder', () => {
  // Read once for the file: both checks of the code as it is read the same files.
  let files: Map<string, string>;
  const codeAsItIs = () => (files ??= repositoryFiles());

  it('holds for the code as it is: nothing under workers/, no engine imported from outside lib/targets/', () => {
    expect(fs.existsSync('workers')).toBe(false);
    expect(engineProblems(codeAsItIs())).toEqual([]);
  });

  it('names every runner runner.client.ts', () => {
    expect(runnerNameProblems(codeAsItIs().keys(), TARGET_IDS)).toEqual([]);
  });

  it('finds the engines by their folders, and the workers the build bundles', () => {
    expect(engineFolders()).toEqual(expect.arrayContaining(['lib/targets/shared/engine', 'lib/targets/python/engine', 'lib/targets/sql/engine', 'lib/targets/r/engine']));
    expect(workerScripts().map(([name]) => name)).toEqual(expect.arrayContaining(['python.worker', 'r.worker', 'graphviz.worker', 'javascript.worker', 'dataset-hash.worker', 'device-keep.worker']));
  });

  it('names a file under workers/, an engine imported from the page, a route and a script, and a runner misnamed', () => {
    const files = new Map([
      ['workers/python.worker.ts', ''],
      ['lib/targets/r/engine/r.worker.ts', "import { x } from '@/lib/targets/shared/engine/lockdown';"],
      ['lib/targets/shared/engine/lockdown.ts', 'export const x = 1;'],
      ['lib/targets/python/kernel.client.ts', "import type { A } from './engine/python.worker';"],
      ['lib/targets/python/engine/python.worker.ts', 'export type A = 1;'],
      ['components/chat/chat.tsx', "import type { A } from '@/lib/targets/python/engine/python.worker';"],
      ['app/api/x/route.ts', "const m = await import('../../../lib/targets/shared/engine/lockdown');"],
      ['scripts/thing.mjs', "import { x } from '../lib/targets/shared/engine/lockdown.ts';"],
      ['lib/files/reader.ts', "export { x } from '@/lib/targets/shared/engine/lockdown';"],
      ['lib/targets/sql/engine/bridge.test.ts', "import { x } from '../../shared/engine/lockdown';"],
      ['scripts/mirror/settings.test.ts', "import { x } from '../../lib/targets/shared/engine/lockdown';"],
    ]);
    const problems = engineProblems(files);
    expect(problems).toEqual([
      expect.stringMatching(/^app\/api\/x\/route\.ts imports lib\/targets\/shared\/engine\/lockdown\.ts, inside an engine/),
      expect.stringMatching(/^components\/chat\/chat\.tsx imports lib\/targets\/python\/engine\/python\.worker\.ts, inside an engine/),
      expect.stringMatching(/^lib\/files\/reader\.ts imports lib\/targets\/shared\/engine\/lockdown\.ts/),
      expect.stringMatching(/^scripts\/thing\.mjs imports lib\/targets\/shared\/engine\/lockdown\.ts/),
      expect.stringMatching(/^workers\/python\.worker\.ts is under workers\//),
    ]);
    expect(runnerNameProblems(['lib/targets/r/r-runner.client.ts', 'lib/targets/graphviz/runner.client.ts', 'lib/targets/sql/runner.ts', 'lib/targets/runner-state.client.ts', 'lib/targets/r/runner.test.ts'], ['r', 'graphviz', 'sql'])).toEqual([
      'lib/targets/r/r-runner.client.ts is a runner named otherwise: a target\'s runner is lib/targets/r/runner.client.ts.',
      'lib/targets/sql/runner.ts is a runner named otherwise: a target\'s runner is lib/targets/sql/runner.client.ts.',
      'the target r has no lib/targets/r/runner.client.ts.',
      'the target sql has no lib/targets/sql/runner.client.ts.',
    ]);
  });
});
