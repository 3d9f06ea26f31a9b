/**
 * Which side of the wire each module runs on, checked from the file names and the imports
 * (docs/ARCHITECTURE.md, "Layout"):
 * - `*.server.ts(x)` run only on the server and import 'server-only'; so do app's route handlers.
 * - `lib/**\/*.client.ts(x)` run only in the page (or its workers) and import 'client-only';
 *   `components/**` (but `*.server.tsx`), the engines (`lib/targets/<target>/engine/**`, what
 *   they share in `lib/targets/shared/engine/**`), every `*.worker.ts` and every 'use client' module are
 *   page-side too. An engine's files run in its workers (or, its `*.client.ts`, as a page script
 *   the worker build bundles): they need no 'client-only', which guards Next's bundles.
 * - every other module under `lib/` is shared: it runs on either side, so it imports neither side's
 *   modules nor a server package.
 * - blobs and the database do not import each other's values, nor the targets the exporters that
 *   iterate over them (lib/notebook): each target declares its notebook form. The floors of `lib/`
 *   and the import circles are tests/layers.ts.
 * Type-only imports are erased at build time and are not counted here.
 */
import { resolveImport, type SourceFiles } from './layers';

/** Packages that run on the server only (a page-side module importing one is a server module misnamed). */
const SERVER_ONLY_PACKAGES = /^(node:|fs$|path$|os$|child_process$|postgres$|@electric-sql\/pglite|drizzle-orm|pino|ioredis|nodemailer|prom-client|@aws-sdk\/|next\/headers$|next\/server$)/;
const SERVER_PACKAGES = /^(node:|fs$|path$|os$|child_process$|postgres$|@electric-sql\/pglite|drizzle-orm|better-auth|@better-auth\/|pino|ioredis|nodemailer|prom-client|@aws-sdk\/|tar$|next\/headers$|next\/server$|server-only$)/;

/** Value imports of a module: [specifier, resolved repository path or null for a package]. */
export function valueImports(file: string, source: string, files: SourceFiles): Array<[string, string | null]> {
  const found: Array<[string, string | null]> = [];
  const add = (spec: string) => found.push([spec, resolveImport(file, spec, files)]);
  for (const m of source.matchAll(/(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"\n]+)['"]/g)) {
    if (m[1]) continue; // `import type …`: erased
    if (/^\s*(?:import|export)\s*\{[^}]*\}/.test(m[0]) && /\{\s*(?:type\s+[\w$]+\s*(?:as\s+[\w$]+\s*)?,?\s*)+\}/.test(m[0])) continue; // every name `type`
    add(m[2]);
  }
  for (const m of source.matchAll(/import\(\s*['"]([^'"\n]+)['"]\s*\)/g)) add(m[1]);
  return found;
}

/** A file of an engine folder: a target's engine (lib/targets/<target>/engine/), or what engines share (lib/targets/shared/engine/). */
export const isEngineFile = (file: string) => /^lib\/targets\/[^/]+\/engine\//.test(file);

export type Side = 'server' | 'page' | 'shared' | 'other';

export function sideOf(file: string, source: string): Side {
  if (/\.server\.tsx?$/.test(file) || /^app\/.*\/route\.ts$/.test(file)) return 'server';
  if (/^\s*(?:\/\*[\s\S]*?\*\/\s*)?['"]use client['"]/.test(source)) return 'page';
  if (/\.client\.tsx?$/.test(file) || isEngineFile(file) || file.endsWith('.worker.ts') || file.startsWith('components/')) return 'page';
  if (file.startsWith('lib/') && !file.startsWith('lib/testing/')) return 'shared';
  return 'other';
}

/** Every broken rule, in words naming the file and what to change; empty when the code keeps them. */
export function sideProblems(files: SourceFiles): string[] {
  const problems: string[] = [];
  const code = [...files.keys()].filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts') && !/\.(test|spec)\.tsx?$/.test(f));
  for (const file of code) {
    const source = files.get(file)!;
    const side = sideOf(file, source);
    const imports = valueImports(file, source, files);
    if (/\.server\.tsx?$/.test(file) && !/^import 'server-only';$/m.test(source)) problems.push(`${file}: a .server module must import 'server-only'.`);
    if (/^lib\/.*\.client\.tsx?$/.test(file) && !isEngineFile(file) && !/^import 'client-only';$/m.test(source)) problems.push(`${file}: a .client module must import 'client-only'.`);
    for (const [spec, target] of imports) {
      const targetSide = target ? sideOf(target, files.get(target) ?? '') : null;
      if (side === 'page' && targetSide === 'server') problems.push(`${file}: page-side code imports the server module ${target}.`);
      if (side === 'page' && !target && SERVER_ONLY_PACKAGES.test(spec) && !file.endsWith('.test-support.ts')) problems.push(`${file}: page-side code imports the server package '${spec}'; a server component is named .server.tsx.`);
      if (side === 'server' && targetSide === 'page' && !/^['"]use client['"]/m.test(files.get(target!) ?? '')) problems.push(`${file}: server code imports the page-side module ${target}.`);
      if (side === 'shared') {
        if (targetSide === 'server' || targetSide === 'page') problems.push(`${file}: a shared module imports the ${targetSide === 'server' ? 'server' : 'page-side'} module ${target}; name this file .${targetSide === 'server' ? 'server' : 'client'}.ts or move what it needs into a shared module.`);
        if (!target && SERVER_PACKAGES.test(spec)) problems.push(`${file}: a shared module imports the server package '${spec}'; name this file .server.ts.`);
      }
      if (target && ((file.startsWith('lib/db/') && target.startsWith('lib/blobs/')) || (file.startsWith('lib/blobs/') && target.startsWith('lib/db/')))) problems.push(`${file}: blobs and the database import each other (${target}).`);
      if (target && file.startsWith('lib/targets/') && target.startsWith('lib/notebook/')) problems.push(`${file}: a target imports the notebook exporter (${target}); the exporter iterates over the targets' notebook forms, not the other way.`);
    }
  }
  return problems;
}
