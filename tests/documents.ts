/**
 * What the documents say that the code can check (docs/ARCHITECTURE.md is the living map;
 * docs/DECISIONS.md the log of decisions):
 * - every repository path the map names exists: a path from a top folder (`lib/db/client.server.ts`,
 *   `lib/targets/python/engine/runpad/`), a link (`../bench/README.md`), or a file named alone in backticks
 *   (`handle-chat.server.ts`), which some folder must hold. A path into what the build makes
 *   (git-ignored: `public/workers/`) counts when git ignores it; the few names outside the
 *   repository are listed with where they live.
 * - the decisions are decisions: each section carries its date, the sections run in date order,
 *   no section is a list of defects (those are CHANGELOG.md's) or of measurements (bench/'s), and a
 *   decision superseded names the section that replaced it.
 */
import path from 'node:path';
import ts from 'typescript';

const TOP = '(?:lib|app|components|workers|scripts|e2e|tests|bench|deploy|docs|types|public|\\.ci)';
const FILE_EXTENSIONS = '(?:tsx?|mjs|js|py|json|md|sh|sql|conf|R|yml|yaml|toml|css)';

/** Names the map uses that no folder of the repository holds, each with where it lives. */
export const OUTSIDE_THE_REPOSITORY: Record<string, string> = {
  'webr-worker.js': "webR's own worker (node_modules/webr/dist), copied by scripts/copy-webr.mjs",
  'runpad-mirror.json': 'the manifest `npm run mirror` writes into the mirror it makes',
};

/** Every repository path a markdown document at `documentPath` names, as [as written, repository path or bare name]. */
export function namedPaths(documentPath: string, text: string): Array<[string, string]> {
  const found = new Map<string, string>();
  // Paths from a top folder, in backticks or in prose.
  for (const m of text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}_./-])(${TOP}/[\\p{L}\\p{N}_.@\\[\\]/-]*)`, 'gu'))) {
    const written = m[1].replace(/[.)\],:;]+$/, (tail) => (tail.startsWith('/') ? tail : ''));
    if (/[*<>{}…]/.test(written)) continue;
    found.set(written, written);
  }
  // Links to files beside or above the document.
  for (const m of text.matchAll(/\]\(((?:\.\.?\/)?[\w./-]+?)(?:#[\w-]*)?\)/g)) {
    if (/^[a-z]+:/.test(m[1])) continue;
    found.set(m[1], path.posix.normalize(path.posix.join(path.posix.dirname(documentPath), m[1])));
  }
  // A file named alone in backticks.
  for (const m of text.matchAll(new RegExp(`\`([\\w-][\\w.-]*\\.${FILE_EXTENSIONS})\``, 'g'))) if (!found.has(m[1])) found.set(m[1], m[1]);
  return [...found];
}

export type Repository = { files: ReadonlySet<string>; ignored: (repositoryPath: string) => boolean };

/** The named paths that do not exist, in words naming each and what to do. */
export function missingPaths(documentPath: string, text: string, repository: Repository): string[] {
  const folders = new Set<string>();
  const names = new Set<string>();
  for (const file of repository.files) {
    const parts = file.split('/');
    names.add(parts[parts.length - 1]);
    for (let i = 1; i < parts.length; i += 1) folders.add(parts.slice(0, i).join('/'));
  }
  const problems: string[] = [];
  for (const [written, target] of namedPaths(documentPath, text)) {
    const bare = !target.includes('/');
    const at = target.replace(/\/$/, '');
    const exists = bare ? names.has(at) || at in OUTSIDE_THE_REPOSITORY : repository.files.has(at) || folders.has(at) || repository.ignored(target);
    if (!exists) problems.push(`${documentPath} names \`${written}\`, which does not exist: write the path the file has now, or drop the mention.`);
  }
  return problems;
}

const MONTH_DAY = /\((\d{4}-\d{2}-\d{2})(?:\s*–\s*(\d{4}-\d{2}-\d{2}))?\)\s*$/;

/** What keeps docs/DECISIONS.md a log of decisions, in words naming each section that breaks it. */
export function decisionLogProblems(text: string): string[] {
  const problems: string[] = [];
  const sections = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1].trim());
  let previous = '';
  for (const title of sections) {
    const date = MONTH_DAY.exec(title);
    if (!date) {
      problems.push(`"${title}": a decision's section ends with its date, (YYYY-MM-DD).`);
      continue;
    }
    if (date[1] < previous) problems.push(`"${title}" comes after a section dated ${previous}: the log runs in date order, oldest first.`);
    previous = date[1];
    if (/\bdefects?\b|\bbugs?\b/i.test(title)) problems.push(`"${title}" lists defects: a defect fixed goes to CHANGELOG.md; a decision it led to stays here, as its what, why and where.`);
    if (/\b(timings?|measurements?|benchmarks?)\b/i.test(title)) problems.push(`"${title}" lists measurements: they go to bench/ (bench/NOTES.md); a decision cites them.`);
  }
  for (const m of text.matchAll(/^- \*\*(Measured|Timings?)[.:]?\*\*/gm)) problems.push(`a "${m[1]}" entry: measurements go to bench/NOTES.md, and the decision says where they are.`);
  const titles = new Set(sections.flatMap((title) => [title, title.replace(MONTH_DAY, '').trim()]));
  for (const m of text.replace(/\s*\n\s*/g, ' ').matchAll(/Superseded by:?\s*("[^"]*"|[^.;]*)/g)) {
    const named = /^"([^"]+)"$/.exec(m[1])?.[1];
    if (!named || !titles.has(named)) problems.push(`"Superseded by ${m[1].trim()}" names no section of the log: quote the title of the section that replaced it.`);
  }
  return problems;
}

/** The files the map's table of long files lists: rows `| \`path\` | jobs |` after "over 300 lines". */
export function listedLongFiles(architecture: string): string[] {
  const start = architecture.indexOf('over 300 lines');
  if (start < 0) return [];
  const table = architecture.slice(start).split(/\n\n(?!\|)/)[0];
  return [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
}

/** Where the listed long files and the files over `limit` lines differ, in words. */
export function longFileProblems(listed: readonly string[], lineCounts: ReadonlyMap<string, number>, limit = 300): string[] {
  const problems: string[] = [];
  for (const [file, lines] of lineCounts) if (lines > limit && !listed.includes(file)) problems.push(`${file} has ${lines} lines and is not in docs/ARCHITECTURE.md's table of long files: split it, or list it with its jobs.`);
  for (const file of listed) {
    const lines = lineCounts.get(file);
    if (lines === undefined) problems.push(`${file} is in the table of long files but does not exist.`);
    else if (lines <= limit) problems.push(`${file} is in the table of long files but has ${lines} lines: take it off the list.`);
  }
  return problems;
}

/** Functions (declarations, expressions, arrows, methods) longer than `limit` lines in a source file, as `file name` → lines. */
export function longFunctions(file: string, source: string, limit: number): Array<[string, number]> {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Array<[string, number]> = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)) {
      const lines = parsed.getLineAndCharacterOfPosition(node.end).line - parsed.getLineAndCharacterOfPosition(node.getStart(parsed)).line + 1;
      const name = node.name?.getText(parsed) ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(parsed) : ts.isPropertyAssignment(node.parent) ? node.parent.name.getText(parsed) : '(anonymous)');
      if (lines > limit) found.push([`${file} ${name}`, lines]);
    }
    ts.forEachChild(node, visit);
  };
  visit(parsed);
  return found;
}

/** The functions the map's table of long functions lists: rows `| \`path\` \`name\` | jobs |` after "functions over". */
export function listedLongFunctions(architecture: string): string[] {
  const start = architecture.indexOf('functions over 150 lines');
  if (start < 0) return [];
  const table = architecture.slice(start).split(/\n\n(?!\|)/)[0];
  return [...table.matchAll(/^\| `([^`]+)` `([^`]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`);
}
