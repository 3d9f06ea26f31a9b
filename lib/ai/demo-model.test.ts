import { streamText, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { createDemoModel } from './demo-model.server';
import { tools } from './python-tool.server';
import { recogniseIntent } from './demo-programs.server';

async function run(messages: ModelMessage[]) {
  const result = streamText({ model: createDemoModel(), messages, tools });
  let text = '';
  let code: string | null = null;
  for await (const part of result.stream) {
    if (part.type === 'text-delta') text += part.text;
    if (part.type === 'tool-call') code = (part.input as { code: string }).code;
  }
  return { text, code };
}

const toolTurn = (request: string, code: string, resultText: string): ModelMessage[] => [
  { role: 'user', content: request },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'python', input: { code } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'python', output: { type: 'content', value: [{ type: 'text', text: resultText }] } }] },
];

describe('offline demo model', () => {
  it.each([
    ['Compute the 30th Fibonacci number', 'fibonacci'],
    ['what is 2**100 / 7', 'result = 2**100 / 7'],
    ['Show me a table of squares', '_repr_markdown_'],
    ['Plot a sine wave', 'application/vnd.vegalite.v5+json'],
    ['Plot a sine wave with matplotlib', 'import matplotlib'],
    ['Show me how you fix an error', 'len(value)'],
  ])('writes Python for "%s"', async (request, expected) => {
    const { code } = await run([{ role: 'user', content: request }]);
    expect(code).toContain(expected);
  });

  it('answers other requests with help and no code', async () => {
    const { text, code } = await run([{ role: 'user', content: 'tell me a joke' }]);
    expect(code).toBeNull();
    expect(text).toContain('offline demo model');
    expect(text).toContain('OPENAI_API_KEY');
  });

  it('summarizes the number the code really printed', async () => {
    const { text, code } = await run(toolTurn('Compute the 31st Fibonacci number', 'print(...)', 'status: ok (3 ms)\nstdout:\nfibonacci(31) = 1346269\n'));
    expect(code).toBeNull();
    expect(text).toContain('1346269');
  });

  it('fixes its code from the traceback it was given', async () => {
    const broken = 'values = [1, 2]\nmean = sum(values) / len(value)\nprint(mean)\n';
    const traceback = "status: error (2 ms)\nerror: NameError: name 'value' is not defined\nTraceback (most recent call last):";
    const { code, text } = await run(toolTurn('Show me how you fix an error', broken, traceback));
    expect(code).toContain('len(values)');
    expect(text).toContain('NameError');
  });

  it('is honest when a package could not be loaded', async () => {
    const { text } = await run(toolTurn('Make a pandas dataframe table of squares', 'import pandas', 'status: error (1 ms)\nerror: PackageLoadError: Could not load pandas'));
    expect(text).toContain('could not be loaded');
    expect(text).toContain('npm run mirror -- python');
  });

  it('draws the figure as an interactive chart when matplotlib could not be loaded, saying so', async () => {
    const { text, code } = await run(toolTurn('Plot a sine wave with matplotlib', 'import matplotlib', 'status: error (1 ms)\nerror: PackageLoadError: Could not load matplotlib'));
    expect(text).toContain('matplotlib could not be loaded');
    expect(code).toContain('application/vnd.vegalite.v5+json');
    expect(code).not.toContain('matplotlib');
  });

  it('takes the upper bound of a range as the size of the problem', () => {
    expect(recogniseIntent('What is the sum of the squares of 1 to 100?')).toEqual({ kind: 'squares', n: 100 });
    expect(recogniseIntent('primes between 1 and 50')).toEqual({ kind: 'primes', n: 50 });
    expect(recogniseIntent('the 30th fibonacci number')).toEqual({ kind: 'fibonacci', n: 30 });
  });

  it('recognises expressions without running them itself', () => {
    expect(recogniseIntent('what is 3^4 + 1?')).toEqual({ kind: 'expression', expression: '3**4 + 1' });
  });
});

describe('the demo model beyond Python', () => {
  it('answers a SQL request over an attached CSV with a GROUP BY on its columns, as a sql call', async () => {
    const { recogniseIntent, programFor, toolFor } = await import('./demo-programs.server');
    const request = 'Query my data with SQL\n[Files attached to this message, available to Python under /data/:]\n/data/sales.csv (60 B, CSV, 4 rows): columns region (string), units (integer), price (number)';
    const intent = recogniseIntent(request);
    expect(toolFor(intent)).toBe('sql');
    const code = programFor(intent)!;
    expect(code).toContain('FROM "sales"');
    expect(code).toContain('GROUP BY "region"');
    expect(code).toContain('SUM("units")');
    expect(code).toContain('quantile_cont("units", 0.5)'); // DuckDB's dialect
  });

  it('draws a diagram with a graphviz call', async () => {
    const { recogniseIntent, programFor, toolFor } = await import('./demo-programs.server');
    const intent = recogniseIntent('Draw a diagram of how Runpad works');
    expect(toolFor(intent)).toBe('graphviz');
    expect(programFor(intent)).toMatch(/^digraph /);
  });

  it('answers a regression in R with an r call: summary(lm()) and a base plot, nothing else taken for R', async () => {
    const { recogniseIntent, programFor, toolFor } = await import('./demo-programs.server');
    const intent = recogniseIntent('Fit a linear model in R');
    expect(toolFor(intent)).toBe('r');
    const code = programFor(intent)!;
    expect(code).toContain('summary(fit)');
    expect(code).toMatch(/lm\(mpg ~ wt, data = mtcars\)/);
    expect(code).toMatch(/^plot\(/m);
    expect(toolFor(recogniseIntent('Show me a table in rows of ten'))).not.toBe('r');
  });
});

describe('the demo model in blocks mode', () => {
  it('writes its code as a fenced block when offered no tools and asked for blocks, and reads block outputs back', async () => {
    const { buildSystemPrompt } = await import('./system-prompt.server');
    const model = createDemoModel();
    const system = buildSystemPrompt({ packages: [], stepBudget: 8, codeMode: 'blocks' });
    const first = await streamText({ model, instructions: system, messages: [{ role: 'user', content: 'Compute the 30th Fibonacci number' }] }).text;
    expect(first).toMatch(/```python\n[\s\S]*fibonacci[\s\S]*\n```/);
    const after = await streamText({
      model,
      instructions: system,
      messages: [
        { role: 'user', content: 'Compute the 30th Fibonacci number' },
        { role: 'assistant', content: first },
        { role: 'user', content: 'Output of block 1 (python):\nstatus: ok (3 ms)\nstdout:\nfibonacci(30) = 832040' },
      ],
    }).text;
    expect(after).toContain('fibonacci(30) = 832040');
    expect(after).not.toContain('```python');
  });
});
