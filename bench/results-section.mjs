// Several benches write one RESULTS file (bench/RESULTS-duckdb.md: the Node part by bench/duckdb.mjs,
// the browser part by bench/duckdb-browser.mjs): each replaces only its own section, between markers,
// so running one does not erase the other's last figures.
import fs from 'node:fs';

/** Replaces (or appends) the section `id` of `file`; `title` is the file's heading when it is new. */
export function writeSection(file, id, title, lines) {
  const start = `<!-- section:${id} -->`;
  const end = `<!-- /section:${id} -->`;
  const body = [start, ...lines, end].join('\n');
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `# ${title}\n`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  const next = from >= 0 && to > from ? text.slice(0, from) + body + text.slice(to + end.length) : `${text.trimEnd()}\n\n${body}\n`;
  fs.writeFileSync(file, next);
}
