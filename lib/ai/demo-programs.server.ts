/**
 * The offline demo model's repertoire: recognises a few kinds of request and writes real code for
 * them (Python, SQL, R, DOT; over a dropped dataset, lib/ai/demo-analysis.ts). The numbers always
 * come from running the code, never from here.
 */
import 'server-only';
import { datasetsIn, isIdColumn, REAL_MODEL_HINT, understand, type Analysis, type Dataset, DATASET_REPERTOIRE } from './demo-analysis';
import { chartProgramFor, programOf } from './demo-analysis-code';

export type DemoIntent =
  | { kind: 'fibonacci'; n: number }
  | { kind: 'factorial'; n: number }
  | { kind: 'primes'; n: number }
  | { kind: 'squares'; n: number }
  | { kind: 'expression'; expression: string }
  | { kind: 'table'; pandas: boolean }
  | { kind: 'plot'; matplotlib: boolean }
  | { kind: 'sql' }
  | { kind: 'analysis'; analysis: Analysis }
  | { kind: 'chart-last' }
  | { kind: 'decline'; text: string }
  | { kind: 'diagram' }
  | { kind: 'r-regression' }
  | { kind: 'error-demo' }
  | { kind: 'help' };

/** What the demo knows besides the request: the dataset in the conversation, and whether packages load. */
export type DemoContext = { dataset?: Dataset | null; packagesUnreachable?: boolean };

/** The request's bound: its last number, so "from 1 to 100" and "1..100" mean 100, not 1. */
const number = (text: string, fallback: number) => {
  const last = [...text.matchAll(/\b(\d{1,6})(?:st|nd|rd|th)?\b/g)].at(-1);
  return last ? Math.min(Number(last[1]), 100_000) : fallback;
};

export function recogniseIntent(request: string, context: DemoContext = {}): DemoIntent {
  const own = request.split('[Files attached to this message')[0];
  const text = own.toLowerCase();
  if (/\b(error|traceback|exception|fix)\b/.test(text)) return { kind: 'error-demo' };
  if (/\bin r\b|\busing r\b|\bwith r\b|\br code\b|\blinear (model|regression)\b|\blm\(|\bregression\b/.test(text)) return { kind: 'r-regression' };
  if (/\b(diagram|flowchart|flow chart|graphviz|dot)\b/.test(text)) return { kind: 'diagram' };
  if (/\bsine\b|\bsin\(x\)|\bcosine\b/.test(text)) return { kind: 'plot', matplotlib: /\bmatplotlib\b/.test(text) && !context.packagesUnreachable };
  if (/fibonacci/.test(text)) return { kind: 'fibonacci', n: number(text, 30) };
  if (/factorial/.test(text)) return { kind: 'factorial', n: number(text, 20) };
  if (/\bprimes?\b/.test(text)) return { kind: 'primes', n: number(text, 100) };
  if (/sum of (the )?squares/.test(text)) return { kind: 'squares', n: number(text, 100) };
  if (/\b(squares|cubes)\b/.test(text) && /\b(table|dataframe)\b/.test(text)) return { kind: 'table', pandas: /pandas|dataframe/.test(text) };
  const expression = text.match(/[-+]?[\d.]+(?:\s*(?:\*\*|[-+*/%^])\s*\(?[-+]?[\d.]+\)?)+/);
  if (expression) return { kind: 'expression', expression: expression[0].replace(/\^/g, '**').trim() };
  // Over a dataset: what the request asks of its columns, or in words why not.
  const dataset = context.dataset ?? datasetsIn(request)[0];
  if (dataset) {
    const understood = understand(request, dataset);
    return understood.kind === 'analysis' ? { kind: 'analysis', analysis: understood.analysis } : understood;
  }
  if (/\b(chart|plot|graph|visuali[sz]e)\b/.test(text) && /\b(it|this|that|these|the result|the last|the table)\b/.test(text)) return { kind: 'chart-last' };
  if (/\b(sql|query|group by)\b/.test(text)) return { kind: 'sql' };
  if (/\b(plot|chart|graph|figure)\b/.test(text)) return { kind: 'plot', matplotlib: /\bmatplotlib\b/.test(text) && !context.packagesUnreachable };
  if (/\b(table|dataframe)\b/.test(text)) return { kind: 'table', pandas: /pandas|dataframe/.test(text) };
  return { kind: 'help' };
}

/** Which tool a demo program is for. */
export function toolFor(intent: DemoIntent): 'python' | 'sql' | 'graphviz' | 'r' {
  if (intent.kind === 'analysis') return programOf(intent.analysis).tool;
  return intent.kind === 'sql' ? 'sql' : intent.kind === 'diagram' ? 'graphviz' : intent.kind === 'r-regression' ? 'r' : 'python';
}

export function programFor(intent: DemoIntent): string | null {
  switch (intent.kind) {
    case 'fibonacci':
      return `def fibonacci(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n\nn = ${intent.n}\nprint(f"fibonacci({n}) = {fibonacci(n)}")\n`;
    case 'factorial':
      return `import math\n\nn = ${intent.n}\nprint(f"{n}! = {math.factorial(n)}")\n`;
    case 'primes':
      return (
        `n = ${intent.n}\nsieve = [True] * (n + 1)\nsieve[0:2] = [False, False]\n` +
        `for i in range(2, int(n ** 0.5) + 1):\n    if sieve[i]:\n        sieve[i * i :: i] = [False] * len(sieve[i * i :: i])\n` +
        `primes = [i for i, is_prime in enumerate(sieve) if is_prime]\n` +
        `print(f"{len(primes)} primes up to {n}; the largest is {primes[-1] if primes else None}")\n`
      );
    case 'squares':
      return `n = ${intent.n}\ntotal = sum(i * i for i in range(1, n + 1))\nprint(f"sum of squares 1..{n} = {total}")\n`;
    case 'expression':
      return `result = ${intent.expression}\nprint(f"${intent.expression} = {result}")\n`;
    case 'table':
      return intent.pandas
        ? `import pandas as pd\n\ndf = pd.DataFrame({"n": range(1, 11)})\ndf["square"] = df["n"] ** 2\ndf["cube"] = df["n"] ** 3\ndf\n`
        : `rows = [(n, n ** 2, n ** 3) for n in range(1, 11)]\n\nclass Table:\n    def _repr_markdown_(self):\n        lines = ["| n | square | cube |", "|---:|---:|---:|"]\n        lines += [f"| {n} | {s} | {c} |" for n, s, c in rows]\n        return "\\n".join(lines)\n\ndisplay(Table())\nprint(f"sum of cubes 1..10 = {sum(c for _, _, c in rows)}")\n`;
    case 'plot':
      return intent.matplotlib ? MATPLOTLIB_SINE : VEGA_LITE_SINE;
    case 'sql':
      return 'SELECT count(*) AS how_many, sum(n) AS total, sum(n * n) AS sum_of_squares, quantile_cont(n, 0.5) AS median\nFROM range(1, 11) AS numbers(n);';
    case 'analysis':
      return programOf(intent.analysis).code;
    case 'chart-last':
    case 'decline':
      return null;
    case 'diagram':
      return [
        'digraph runpad {',
        '  rankdir=LR;',
        '  node [shape=box, style=rounded];',
        '  you [label="You ask"];',
        '  model [label="The model writes code"];',
        '  browser [label="Your browser runs it"];',
        '  outputs [label="Outputs"];',
        '  you -> model -> browser -> outputs;',
        '  outputs -> model [label="seen by the model", style=dashed];',
        '}',
      ].join('\n');
    case 'r-regression':
      return [
        '# A linear model on R\'s built-in mtcars data: fuel economy against weight',
        'fit <- lm(mpg ~ wt, data = mtcars)',
        'print(summary(fit))',
        'plot(mtcars$wt, mtcars$mpg, xlab = "Weight (1000 lbs)", ylab = "Miles per gallon", main = "mpg ~ wt", pch = 19)',
        'abline(fit, col = "red", lwd = 2)',
        'cat(sprintf("slope = %.3f mpg per 1000 lbs, R-squared = %.3f\\n", coef(fit)[["wt"]], summary(fit)$r.squared))',
      ].join('\n');
    case 'error-demo':
      return `values = [3, 1, 4, 1, 5, 9, 2, 6]\nmean = sum(values) / len(value)\nprint(f"mean = {mean}")\n`;
    case 'help':
      return null;
  }
}

const MATPLOTLIB_SINE = `import math\nimport matplotlib.pyplot as plt\n\nxs = [i / 50 for i in range(0, 315)]\nplt.figure(figsize=(6, 3.5))\nplt.plot(xs, [math.sin(x) for x in xs], label="sin(x)")\nplt.title("A sine wave")\nplt.xlabel("x")\nplt.legend()\nplt.show()\nprint(f"plotted {len(xs)} points")\n`;

/** The sine wave as an interactive Vega-Lite chart: no package needed, so it draws offline too. */
export const VEGA_LITE_SINE = [
  'import math',
  '',
  'values = [{"x": round(i / 50, 2), "sin(x)": round(math.sin(i / 50), 4)} for i in range(0, 315)]',
  'spec = {',
  '    "$schema": "https://vega.github.io/schema/vega-lite/v5.json",',
  '    "title": "A sine wave",',
  '    "data": {"values": values},',
  '    "mark": {"type": "line", "tooltip": True},',
  '    "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "sin(x)", "type": "quantitative"}},',
  '}',
  'display({"application/vnd.vegalite.v5+json": spec}, raw=True)',
  'print(f"plotted {len(values)} points")',
  '',
].join('\n');

/** A chart of the last query's result, run again so it is there after a reload too. */
export function chartOfLastProgram(query: string, title: string): string {
  return chartProgramFor(query, title);
}

/** The demo's self-correction: a fix driven by the traceback it was given. */
export function fixFor(code: string, errorText: string): string | null {
  const nameError = errorText.match(/NameError: name '(\w+)' is not defined/);
  if (!nameError) return null;
  const wrong = nameError[1];
  const candidates = [...code.matchAll(/\b([A-Za-z_]\w*)\s*=/g)].map((m) => m[1]).filter((name) => name.startsWith(wrong) && name !== wrong);
  if (candidates.length === 0) return null;
  return code.replace(new RegExp(`\\b${wrong}\\b`, 'g'), candidates[0]);
}

/** What the demo offers when it cannot answer: only what works in this install. */
export function helpText(context: DemoContext = {}): string {
  return [
    "I'm the **offline demo model**: no language model is configured on this server, so I can only answer a few kinds of request, but everything I show you is computed by real code running in your browser.",
    '',
    'Try:',
    '- *Compute the 30th Fibonacci number* (or a factorial, the primes up to N, an arithmetic expression like `2**100 / 7`)',
    '- *Show me a table of squares and cubes*',
    context.dataset
      ? `- Over \`${context.dataset.file}\`: ${DATASET_REPERTOIRE}, e.g. *Total ${context.dataset.columns.find((c) => ['integer', 'number'].includes(c.type) && !isIdColumn(c.name))?.name ?? 'rows'} by month using SQL*`
      : `- Drop a CSV on the chat and ask for ${DATASET_REPERTOIRE} (SQL in DuckDB or Python, offline)`,
    '- *Draw a diagram of how Runpad works* (Graphviz)',
    '- *Fit a linear model in R* (`summary(lm(...))` and a base R plot; R runs in your browser too)',
    '- *Plot a sine wave* (an interactive chart)',
    '- *Show me how you fix an error in your code*',
    '',
    REAL_MODEL_HINT,
  ].join('\n');
}

/** Said when no result in the conversation can be charted. */
export const NOTHING_TO_CHART = [
  '*(Offline demo model.)*',
  '',
  'There is no result to chart yet. Drop a CSV on the chat and ask a question of it first (for example *Total amount by month*), then ask for a chart of it.',
  '',
  REAL_MODEL_HINT,
].join('\n');
