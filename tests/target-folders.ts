/**
 * The page shell knows no engine (docs/ARCHITECTURE.md, "Targets"): code outside `lib/targets/`
 * imports the targets only through the modules at its top (the registry, the runs controller,
 * the runners' list, the engine contract, the pipeline) and what the targets share outside their
 * engines (`lib/targets/shared/`, not its `engine/`); never a target's own folder
 * (`lib/targets/python/…`). A test file may import what it tests. Imports are read as
 * tests/layers.ts reads them, type-only ones too.
 */
import path from 'node:path';
import { importSpecifiers, type SourceFiles } from './layers';

/** The repository path an import names (whether or not it is a TypeScript file), or null for a package. */
function importedPath(from: string, spec: string): string | null {
  if (spec.startsWith('@/')) return spec.slice(2);
  if (spec.startsWith('./') || spec.startsWith('../')) return path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  return null;
}

/** The target folder (`lib/targets/python/`, or the engines' shared `lib/targets/shared/engine/`) a path lies in, or null. */
function targetFolderOf(file: string): string | null {
  const parts = file.split('/');
  if (parts.length <= 3 || parts[0] !== 'lib' || parts[1] !== 'targets') return null;
  if (parts[2] === 'shared') return parts.length > 4 && parts[3] === 'engine' ? 'lib/targets/shared/engine/' : null;
  return `lib/targets/${parts[2]}/`;
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** Each import from outside `lib/targets/` into a target's folder, as `importer → imported`. */
export function targetFolderImports(files: SourceFiles): string[] {
  const found: string[] = [];
  for (const [file, source] of files) {
    // From outside lib/targets/, a path into a target's folder names `targets` in its specifier: a
    // file without that word imports none, and is not parsed.
    if (file.startsWith('lib/targets/') || !source.includes('targets')) continue;
    for (const spec of importSpecifiers(file, source)) {
      const imported = importedPath(file, spec);
      if (imported && targetFolderOf(imported)) found.push(`${file} → ${imported}`);
    }
  }
  return found;
}

/** The imports above that break the rule: those of product code (not of a test file). */
export function targetFolderProblems(files: SourceFiles): string[] {
  return targetFolderImports(new Map([...files].filter(([file]) => !isTest(file)))).map(
    (line) => `${line}: only lib/targets/ imports a target's folder; import the registry, the runs controller or the runners' list (lib/targets/*.ts).`,
  );
}
