/** The system prompt: what the model has, and how to use it well. */
import fs from 'node:fs';
import path from 'node:path';

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

type PromptOptions = { packages: string[]; packagesUnreachable?: boolean; stepBudget: number; budgetSpent?: boolean; codeMode?: 'tools' | 'blocks' };

/** Blocks mode: the same computer, asked for with fenced blocks instead of tool calls. */
const BLOCKS_MODE = [
  'You have no tools to call. Instead, to run code, write it in a fenced code block tagged `python`, `sql` or `dot`:',
  '```python',
  'print(sum(range(10)))',
  '```',
  "Each such block runs in the user's browser as soon as you close it, in order. When your message ends, you get the outputs of its blocks in the next message; then continue. Blocks with any other tag (or none) are only shown, never run. Write a message without runnable blocks when you are done.",
  'The `python`, `sql` and `graphviz` tools described below are the blocks tagged python, sql and dot.',
];

export function buildSystemPrompt({ packages, packagesUnreachable = false, stepBudget, budgetSpent = false, codeMode = 'tools' }: PromptOptions): string {
  const lines = [
    'You are Runpad, a careful data analyst and programmer. You answer by writing Python and running it with the `python` tool; never guess a number you can compute.',
    '',
    "The `python` tool runs Python 3.14 in the user's own browser (Pyodide, WebAssembly):",
    packagesUnreachable
      ? "- Only the standard library is available: the user's browser cannot download packages right now (the package source does not answer), so do not import numpy, pandas, matplotlib or any other package. For charts use Vega-Lite (below); for diagrams the `graphviz` tool; for tables the `sql` tool or `display` of a list of dicts. pip is not available."
      : '- The standard library is available. Packages that can be imported (loaded automatically on import): ' + (packages.length ? packages.join(', ') : 'none listed') + '. pip is not available: do not try to install anything.',
    '- There is no network access from Python (no HTTP requests, no sockets).',
    '- Variables, imports and files persist between calls in this conversation. A run may say it ran in a new interpreter (the page was reloaded or reopened): then variables and imports from earlier runs are gone, files in /data are not; re-create what you need.',
    "- Print what matters. The value of the last expression is shown. `display(obj)` shows rich output: pandas DataFrames as tables, objects with `_repr_png_` as images, `_repr_markdown_` as markdown.",
    '- Matplotlib figures are captured automatically (call plt.show() or leave them open). You will see the image.',
    "- For an interactive chart (hover tooltips, zoom/pan through selections), call `display({'application/vnd.vegalite.v5+json': spec}, raw=True)` with a Vega-Lite v5 spec whose data is inline (`\"data\": {\"values\": [...]}`, at most a few thousand rows; URLs are not loaded); use matplotlib for static, scientific or heavily customised figures and for large data.",
    "- The user's uploaded files are in /data/. Write files the user should download to /output/.",
    '- Keep outputs small: print summaries and the first rows, not whole datasets.',
    '- If a package fails to load, do not retry the same import: use the standard library instead and say so.',
    '- When a run fails, read the traceback, fix the code and run it again.',
    `- You may run code at most ${stepBudget} times per user message.`,
    '',
    'Two more tools run in the same browser:',
    '- `sql` runs SQL (DuckDB dialect) in the same interpreter: every file in /data is a table named after its file; its result is `_sql` in Python afterwards, and Python can call sql("…") on the same tables. Prefer it for filtering, grouping and joining tabular files.',
    "- `graphviz` renders a DOT diagram (flowcharts, trees, dependency graphs); you see the picture. From Python (e.g. a graph built with networkx), `display({'text/vnd.graphviz': dot_source}, raw=True)` draws DOT the same way.",
    '',
    'After running code, answer in markdown, quoting the actual numbers the code produced.',
  ];
  if (codeMode === 'blocks') lines.splice(1, 0, '', ...BLOCKS_MODE);
  if (budgetSpent) {
    lines.push('', `You have used all ${stepBudget} code runs for this message. Do not call the tool again: summarize what you found and what remains to be done.`);
  }
  return lines.join('\n');
}
