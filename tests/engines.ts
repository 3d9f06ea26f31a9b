/**
 * Where the engines live, checked from the code (docs/ARCHITECTURE.md, "Layout" and "Adding a
 * target"):
 * - every engine is in its target's folder (`lib/targets/<id>/engine/`), what engines share in
 *   `lib/targets/shared/engine/`; no file is left in a folder of workers outside the targets (`workers/`);
 * - only code in `lib/targets/` imports an engine folder: the page shell, the routes and the rest
 *   of `lib/` reach a target's engine through its runner (a test may import what it tests);
 * - every target's page-side runner is named `runner.client.ts`.
 * Imports are parsed as tests/layers.ts parses them (static, `export … from`, `import()`, types).
 */
import { importSpecifiers, resolveImport, type SourceFiles } from './layers';
import { isEngineFile } from './side-of-wire';

/** The folder no engine may live in any more. */
const OLD_WORKERS_FOLDER = 'workers/';

const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file) || file.endsWith('.test-support.ts');

/** Every broken rule, in words naming the file and what to change; empty when the code keeps them. */
export function engineProblems(files: SourceFiles): string[] {
  const problems: string[] = [];
  for (const file of [...files.keys()].sort()) {
    if (file.startsWith(OLD_WORKERS_FOLDER)) problems.push(`${file} is under workers/: move it into its target's engine folder (lib/targets/<id>/engine/), lib/targets/shared/engine/ if engines share it, or the folder that owns it on the page side.`);
    if (!/\.(tsx?|mts|mjs)$/.test(file) || file.endsWith('.d.ts') || isTest(file) || file.startsWith('lib/targets/')) continue;
    const source = files.get(file)!;
    // From outside lib/targets/, a path into an engine folder names `targets` in its specifier:
    // a file without that word imports none, and is not parsed.
    if (!source.includes('targets')) continue;
    for (const spec of importSpecifiers(file, source)) {
      const target = resolveImport(file, spec, files);
      if (target && isEngineFile(target)) problems.push(`${file} imports ${target}, inside an engine: only lib/targets/ imports an engine; reach it through its target's runner, or move what both need out of the engine folder.`);
    }
  }
  return problems;
}

/**
 * The runner files misnamed: a target's page-side runner is `lib/targets/<id>/runner.client.ts`,
 * and each of `targetIds` has one.
 */
export function runnerNameProblems(files: Iterable<string>, targetIds: readonly string[]): string[] {
  const problems: string[] = [];
  const all = [...files];
  for (const file of all) {
    const m = /^lib\/targets\/([^/]+)\/(?:.*\/)?([^/]*runner[^/]*\.tsx?)$/.exec(file);
    if (!m || isTest(file) || m[2] === 'runner.client.ts' || !targetIds.includes(m[1])) continue;
    problems.push(`${file} is a runner named otherwise: a target's runner is lib/targets/${m[1]}/runner.client.ts.`);
  }
  for (const id of targetIds) if (!all.includes(`lib/targets/${id}/runner.client.ts`)) problems.push(`the target ${id} has no lib/targets/${id}/runner.client.ts.`);
  return problems;
}
