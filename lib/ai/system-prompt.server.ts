/** The system prompt: what the model has, and how to use it well. */
import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { TARGET_LIST, TARGETS, type TargetId } from '@/lib/targets/registry';
import type { PackageSourceAnswer } from '@/lib/targets/target';
import { DATA_FORMATS_PROMPT } from '@/lib/files/formats/prompt';

const CURATED = [
  'numpy', 'pandas', 'matplotlib', 'scipy', 'scikit-learn', 'statsmodels', 'sympy', 'networkx',
  'pillow', 'seaborn', 'pyarrow', 'openpyxl', 'beautifulsoup4', 'regex', 'shapely', 'xarray',
];

let cachedPackages: string[] | null = null;

/** The main packages that exist in the installed Pyodide's lock file. */
export function mainAvailablePackages(): string[] {
  if (cachedPackages) return cachedPackages;
  // A plain path: bundlers turn require.resolve() into a module id, not a file name.
  const lockPath = path.join(process.cwd(), 'node_modules/pyodide/pyodide-lock.json');
  const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as { packages: Record<string, { name: string }> };
  const names = new Set(Object.values(lock.packages).map((p) => p.name.toLowerCase()));
  cachedPackages = CURATED.filter((name) => names.has(name));
  return cachedPackages;
}

/** The system prompt's words when Python has only its standard library (the offline demo model reads them too). */
export const STANDARD_LIBRARY_ONLY = 'Only the standard library is available';

type PromptOptions = {
  packages: string[];
  /** What the page found of each target's package source (Python's mirror, R's repository); unknown when absent. */
  packageSources?: Partial<Record<TargetId, PackageSourceAnswer>>;
  stepBudget: number;
  budgetSpent?: boolean;
  codeMode?: 'tools' | 'blocks';
};

/** `a`, `b` or `c` (with `joiner` before the last). */
function listOf(words: readonly string[], joiner: string): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} ${joiner} ${words.at(-1)}`;
}

/** Blocks mode: the same computer, asked for with fenced blocks instead of tool calls; each target's first block tag. */
function blocksMode(): string[] {
  const tags = TARGET_LIST.map((target) => target.blockTags[0]);
  return [
    `You have no tools to call. Instead, to run code, write it in a fenced code block tagged ${listOf(tags.map((tag) => `\`${tag}\``), 'or')}:`,
    '```python',
    'print(sum(range(10)))',
    '```',
    "Each such block runs in the user's browser as soon as you close it, in order. When your message ends, you get the outputs of its blocks in the next message; then continue. Blocks with any other tag (or none) are only shown, never run. Write a message without runnable blocks when you are done.",
    `The ${listOf(TARGET_LIST.map((target) => `\`${target.toolName}\``), 'and')} tools described below are the blocks tagged ${listOf(tags, 'and')}.`,
  ];
}

/** The other targets, one line each, from the registry; with what is known of their packages. */
function otherTools(sources: Partial<Record<TargetId, PackageSourceAnswer>>): string[] {
  const others = TARGET_LIST.filter((target) => target.id !== TARGETS.python.id);
  if (others.length === 0) return [];
  const line = (target: (typeof others)[number]) => {
    const packages = target.packagesPrompt?.[sources[target.id] ?? 'unknown'];
    return `- \`${target.toolName}\` ${target.prompt}${packages ? ` ${packages}` : ''}`;
  };
  return ['', 'More tools run in the same browser:', ...others.map(line)];
}

export function buildSystemPrompt({ packages, packageSources = {}, stepBudget, budgetSpent = false, codeMode = 'tools' }: PromptOptions): string {
  const packagesUnreachable = packageSources.python === 'unreachable';
  const lines = [
    'You are Runpad, a careful data analyst and programmer. You answer by writing Python and running it with the `python` tool; never guess a number you can compute.',
    '',
    "The `python` tool runs Python 3.14 in the user's own browser (Pyodide, WebAssembly):",
    packagesUnreachable
      ? `- ${STANDARD_LIBRARY_ONLY}: the user's browser cannot download packages right now (the package source does not answer), so do not import numpy, pandas, matplotlib or any other package. For charts use Vega-Lite (below); for diagrams the \`graphviz\` tool; for tables the \`sql\` tool, or \`display({'text/markdown': table}, raw=True)\` of a markdown table. pip is not available.`
      : '- The standard library is available. Packages that can be imported (loaded automatically on import): ' + (packages.length ? packages.join(', ') : 'none listed') + '. pip is not available: do not try to install anything.',
    '- There is no network access from Python (no HTTP requests, no sockets).',
    '- Variables, imports and files persist between calls in this conversation. A run may say it ran in a new interpreter (the page was reloaded or reopened): then variables and imports from earlier runs are gone, files in /data are not; re-create what you need.',
    `- Print what matters. The value of the last expression is shown. \`display(obj)\` shows rich output: ${packagesUnreachable ? '' : 'pandas DataFrames as tables, '}objects with \`_repr_png_\` as images, \`_repr_markdown_\` as markdown.`,
    // Each package is spoken of once: with no packages, nothing below offers matplotlib.
    ...(packagesUnreachable ? [] : ['- Matplotlib figures are captured automatically (call plt.show() or leave them open). You will see the image.']),
    "- For an interactive chart (hover tooltips, zoom/pan through selections), call `display({'application/vnd.vegalite.v5+json': spec}, raw=True)` with a Vega-Lite v5 spec whose data is inline (`\"data\": {\"values\": [...]}`, at most a few thousand rows; URLs are not loaded)" +
      (packagesUnreachable ? '.' : '; use matplotlib for static, scientific or heavily customised figures and for large data.'),
    "- The user's uploaded files are in /data/. Write files the user should download to /output/.",
    `- Tabular files in /data/ are read with \`sql("…")\` in Python (no package needed, offline too): ${DATA_FORMATS_PROMPT}. Read Parquet and Excel this way, not with a package.`,
    '- Keep outputs small: print summaries and the first rows, not whole datasets.',
    '- If a package fails to load, do not retry the same import: use the standard library instead and say so.',
    '- When a run fails, read the traceback, fix the code and run it again.',
    `- You may run code at most ${stepBudget} times per user message.`,
    ...otherTools(packageSources),
    '',
    'After running code, answer in markdown, quoting the actual numbers the code produced.',
  ];
  if (codeMode === 'blocks') lines.splice(1, 0, '', ...blocksMode());
  if (budgetSpent) {
    lines.push('', `You have used all ${stepBudget} code runs for this message. Do not call the tool again: summarize what you found and what remains to be done.`);
  }
  return lines.join('\n');
}
