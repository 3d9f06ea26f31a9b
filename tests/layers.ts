/**
 * The layers of `lib/` and the absence of import circles, checked from the code
 * (docs/ARCHITECTURE.md, "Layers"):
 * - the floors are read from the numbered list under "### Layers" in docs/ARCHITECTURE.md; each
 *   names folders of `lib/` (`lib/db/`) or `lib/` itself for the files directly in it;
 * - a module under `lib/` imports only its own folder and folders on lower floors: never a folder
 *   on its own floor or above, and never a folder the list does not name;
 * - no file imports itself back, through any chain, anywhere in lib/, app/, components/.
 * Every import counts, type-only ones too: a type names a concept of the folder it comes from.
 * Imports are parsed with the TypeScript compiler (static, `export … from`, dynamic `import()`).
 */
import path from 'node:path';
import ts from 'typescript';

export type SourceFiles = ReadonlyMap<string, string>;

const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

/** Every module specifier a source file imports, re-exports or loads with `import()`. */
export function importSpecifiers(file: string, source: string): string[] {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) found.push(node.moduleReference.expression.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) found.push(node.arguments[0].text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) found.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(parsed);
  return found;
}

/** The repository path a specifier names, or null for a package or a file outside the sources. */
export function resolveImport(from: string, spec: string, files: SourceFiles): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('./') || spec.startsWith('../')) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null;
  for (const extension of EXTENSIONS) if (files.has(base + extension)) return base + extension;
  return null;
}

/** The unit of `lib/` a file belongs to: `lib/` for the files directly in it, else its first folder (`lib/db/`). */
export function layerUnit(file: string): string | null {
  const parts = file.split('/');
  if (parts[0] !== 'lib') return null;
  return parts.length === 2 ? 'lib/' : `lib/${parts[1]}/`;
}

/** The floors of `lib/`, from the ground up, as the numbered list under "### Layers" names them. */
export function readLayers(architecture: string): string[][] {
  const section = architecture.split(/^### Layers\s*$/m)[1];
  if (!section) throw new Error('docs/ARCHITECTURE.md has no "### Layers" section.');
  const floors: string[][] = [];
  for (const line of section.split(/^#{2,3} /m)[0].split('\n')) {
    if (!/^\d+\.\s/.test(line)) continue;
    floors.push([...line.matchAll(/`(lib\/[\w-]*\/?)`/g)].map((m) => (m[1].endsWith('/') ? m[1] : `${m[1]}/`)));
  }
  return floors;
}

const isCode = (file: string) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts') && !/\.(test|spec)\.tsx?$/.test(file);

/** Every broken rule, in words naming the file and what to change; empty when the code keeps them. */
export function layerProblems(files: SourceFiles, floors: string[][]): string[] {
  const problems: string[] = [];
  const floorOf = new Map<string, number>();
  floors.forEach((units, floor) => {
    for (const unit of units) {
      if (floorOf.has(unit)) problems.push(`${unit} is named on two floors of the layer list (${floorOf.get(unit)! + 1} and ${floor + 1}).`);
      floorOf.set(unit, floor);
    }
  });
  const graph = new Map<string, string[]>();
  const unlisted = new Set<string>();
  for (const file of [...files.keys()].filter(isCode).sort()) {
    const targets = importSpecifiers(file, files.get(file)!).flatMap((spec) => {
      const target = resolveImport(file, spec, files);
      return target && isCode(target) ? [target] : [];
    });
    graph.set(file, [...new Set(targets)]);
    const unit = layerUnit(file);
    if (!unit) continue;
    const floor = floorOf.get(unit);
    if (floor === undefined) {
      if (!unlisted.has(unit)) problems.push(`${unit} is on no floor of the layer list in docs/ARCHITECTURE.md ("### Layers"); add it to the floor it belongs on.`);
      unlisted.add(unit);
      continue;
    }
    for (const target of graph.get(file)!) {
      const targetUnit = layerUnit(target);
      if (!targetUnit || targetUnit === unit) continue;
      const targetFloor = floorOf.get(targetUnit);
      if (targetFloor === undefined) continue; // named once above, as an unlisted folder
      if (targetFloor === floor) problems.push(`${file} imports ${target}: ${unit} and ${targetUnit} are on the same floor (${floor + 1}), so neither imports the other; move what both need to a lower floor.`);
      else if (targetFloor > floor) problems.push(`${file} imports ${target}, which is on a higher floor (${unit} on ${floor + 1}, ${targetUnit} on ${targetFloor + 1}); imports point down: move the shared part down, or the importing part up.`);
    }
  }
  for (const circle of circles(graph)) problems.push(`import circle: ${circle.join(' → ')} (type-only imports count; move what each needs from the other to a module both import).`);
  return problems;
}

/** Strongly connected groups of more than one module (Tarjan), each listed from its first file. */
function circles(graph: ReadonlyMap<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}
