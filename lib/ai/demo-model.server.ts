/**
 * The built-in offline demo model (a LanguageModelV4), used when no model is configured. It
 * writes real Python for a few kinds of request (lib/ai/demo-programs.server.ts) and then summarizes
 * what the code actually produced, read from the tool result in its prompt.
 */
import 'server-only';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { chartOfLastProgram, fixFor, helpText, NOTHING_TO_CHART, programFor, recogniseIntent, toolFor, VEGA_LITE_SINE, type DemoContext, type DemoIntent } from './demo-programs.server';
import { datasetsIn, understand, type Dataset } from './demo-analysis';
import { openingOf as analysisOpening, sqlFor, titleOf } from './demo-analysis-code';
import { STANDARD_LIBRARY_ONLY } from './system-prompt.server';

type Turn = {
  request: string;
  toolResults: string[];
  lastCode: string | null;
  /** The datasets attached in the conversation, the latest first. */
  datasets?: Dataset[];
  /** The user's earlier requests, the latest first. */
  earlierRequests?: string[];
  /** The last SQL run before this request (an edited one as the user ran it). */
  lastSql?: string | null;
  /** The system prompt says Python's packages cannot be downloaded. */
  packagesUnreachable?: boolean;
};

/** The user's last message, the tool results and code that came after it, and what came before. */
export function readTurn(prompt: LanguageModelV4Prompt): Turn {
  // In blocks mode the outputs of code blocks come back as user messages: not the user speaking.
  const isBlockOutput = (m: LanguageModelV4Prompt[number]) => m.role === 'user' && /^Output of block \d+/.test(textOf(m.content));
  let lastUser = prompt.map((m) => m.role).lastIndexOf('user');
  while (lastUser > 0 && isBlockOutput(prompt[lastUser])) lastUser = prompt.slice(0, lastUser).map((m) => m.role).lastIndexOf('user');
  const request = lastUser === -1 ? '' : textOf(prompt[lastUser].content);
  const toolResults: string[] = [];
  let lastCode: string | null = null;
  for (const message of prompt.slice(lastUser + 1)) {
    if (isBlockOutput(message)) toolResults.push(textOf(message.content).replace(/^Output of block \d+ \([^)]*\):\n/, ''));
    if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type === 'tool-call' && part.toolName === 'python') lastCode = codeOf(part.input);
        if (part.type === 'text') lastCode = /```python\n([\s\S]*?)\n```/.exec(part.text)?.[1] ?? lastCode;
      }
    }
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        const output = part.output;
        if (output.type === 'content') toolResults.push(output.value.map((v) => (v.type === 'text' ? v.text : '')).join('\n'));
        else if (output.type === 'text' || output.type === 'error-text') toolResults.push(output.value);
        else if (output.type === 'json' || output.type === 'error-json') toolResults.push(JSON.stringify(output.value));
      }
    }
  }
  const datasets: Dataset[] = [];
  const earlierRequests: string[] = [];
  let lastSql: string | null = null;
  prompt.forEach((message, index) => {
    if (message.role === 'user' && !isBlockOutput(message)) {
      const text = textOf(message.content);
      datasets.unshift(...datasetsIn(text));
      if (index < lastUser) earlierRequests.unshift(text);
    }
    if (message.role === 'assistant' && index < lastUser) {
      for (const part of message.content) {
        if (part.type === 'tool-call' && part.toolName === 'sql') lastSql = codeOf(part.input) ?? lastSql;
        if (part.type === 'text') lastSql = [...part.text.matchAll(/```(?:sql|duckdb|sqlite)\n([\s\S]*?)\n```/g)].at(-1)?.[1] ?? lastSql;
      }
    }
  });
  const packagesUnreachable = prompt.some((m) => m.role === 'system' && typeof m.content === 'string' && m.content.includes(STANDARD_LIBRARY_ONLY));
  return { request, toolResults, lastCode, datasets, earlierRequests, lastSql, packagesUnreachable };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : '')).join(' ');
}

function codeOf(input: unknown): string | null {
  const value = typeof input === 'string' ? safeParse(input) : input;
  return value && typeof value === 'object' && 'code' in value && typeof value.code === 'string' ? value.code : null;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

type Plan = { text: string; code?: string; tool?: 'python' | 'sql' | 'graphviz' | 'r' };

/**
 * Code, program output or an error, quoted in the demo's prose: as markdown inline code, so that
 * `**`, `*` and `_` in it stay characters ("2**100 / 7 = …" was shown as "2100 / 7 = …", the
 * `**` taken for bold). The fence is longer than any run of backticks inside.
 */
export function inlineCode(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ').trim();
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Output quoted as a block: a fence longer than any run of backticks in it, so none can close it early. */
function fencedBlock(text: string, info = 'text'): string[] {
  const longest = Math.max(0, ...(text.match(/`{3,}/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence + info, text, fence];
}

type Block = { name: string; header: string; body: string[] };

/** A line that starts a part of the run's text (lib/ai/run-to-model.server.ts): its name, else null. */
function headerOf(line: string): string | null {
  const named = /^(stdout|stderr|result|display)(?: \([^)]*\))?:$/.exec(line);
  if (named) return named[1];
  if (/^\[image \d+/.test(line)) return 'image';
  const inline = /^(status|notice|error): /.exec(line);
  if (inline) return inline[1];
  if (/^wrote \/output\//.test(line)) return 'wrote';
  return null;
}

/** The run's text in its parts: the program's own output apart from what describes images and charts. */
function blocksOf(result: string): Block[] {
  const blocks: Block[] = [];
  for (const line of result.split('\n')) {
    const name = headerOf(line);
    if (name) blocks.push({ name, header: line, body: [] });
    else if (blocks.length > 0) blocks.at(-1)!.body.push(line);
  }
  return blocks;
}

const joined = (blocks: Block[], name: string) =>
  blocks
    .filter((b) => b.name === name)
    .map((b) => b.body.join('\n').trim())
    .filter(Boolean)
    .join('\n') || null;

const NUMERIC_TYPE = /^(?:integer|number|bigint|hugeint|int\w*|double|float|decimal[^)]*|real|smallint|tinyint|ubigint|uinteger)$/i;
const formatNumber = (text: string) => (Number.isFinite(Number(text)) && text.trim() !== '' ? Number(text).toLocaleString('en-US', { maximumFractionDigits: 2 }) : text);

/** A table result in words: its size and columns, and its highest and lowest values when it has a label and a number. */
function describeTable(body: string[]): string[] {
  const size = /^table: ([\d,]+) rows? × ([\d,]+) columns?/.exec(body[0] ?? '');
  if (!size) return [];
  const columns = [...(body[1] ?? '').replace(/^columns: /, '').matchAll(/(?:^|, )(.+?) \(([^)]*)\)(?=, |$)/g)].map((m) => ({ name: m[1], numeric: NUMERIC_TYPE.test(m[2]) }));
  const rows = body
    .slice(3)
    .filter((line) => line !== '' && !line.startsWith('[first '))
    .map((line) => line.split(' | '));
  const shownOnly = body.some((line) => line.startsWith('[first '));
  const lines = [`The result has ${size[1]} ${size[1] === '1' ? 'row' : 'rows'} (${columns.map((c) => inlineCode(c.name)).join(', ')}), shown above as a table.`];
  const value = columns.findIndex((c, i) => i > 0 && c.numeric);
  if (value > 0 && rows.length > 1 && !columns[0].numeric) {
    const ranked = rows.filter((r) => r[value] !== undefined && r[value] !== '' && Number.isFinite(Number(r[value]))).sort((a, b) => Number(b[value]) - Number(a[value]));
    if (ranked.length > 1) {
      const [high, low] = [ranked[0], ranked.at(-1)!];
      lines.push(
        `Highest ${inlineCode(columns[value].name)}${shownOnly ? ` among the first ${rows.length} rows` : ''}: **${inlineCode(high[0] || '(blank)')}** with ${formatNumber(high[value])}; lowest: **${inlineCode(low[0] || '(blank)')}** with ${formatNumber(low[value])}.`,
      );
    }
  }
  return lines;
}

/** What to say after a run: quotes what the code really produced. */
export function summarize(result: string): string {
  const blocks = blocksOf(result);
  const status = result.match(/^status: (\w+)/)?.[1] ?? 'unknown';
  const stdout = joined(blocks, 'stdout');
  const resultBlocks = blocks.filter((b) => b.name === 'result' || (b.name === 'display' && b.body[0]?.startsWith('table: ')));
  const error = result.match(/error: ([^\n]+)/)?.[1];
  const lines = ['*(Offline demo model.)*', ''];
  if (/PackageLoadError/.test(result)) {
    lines.push(
      `The code needs a package that could not be loaded here: ${error ? inlineCode(error) : 'see the error above'}.`,
      '',
      'The package source is not reachable from this browser; tables, SQL, diagrams and interactive charts still work. An administrator can self-host the packages with `npm run mirror -- python`.',
    );
    return lines.join('\n');
  }
  if (status !== 'ok') {
    lines.push(`The run ended with status **${status}**${error ? `: ${inlineCode(error)}` : ''}.`);
    return lines.join('\n');
  }
  const isChart = (b: Block) => (b.name === 'image' && /an interactive chart/.test(`${b.header} ${b.body.join(' ')}`)) || (b.name === 'display' && /\(a chart/.test(b.header));
  const charts = blocks.filter(isChart).length;
  const images = blocks.filter((b) => b.name === 'image' && !isChart(b)).length;
  const markdown = blocks.some((b) => b.name === 'display' && /\(markdown\)/.test(b.header));
  if (stdout) lines.push('The code printed:', '', ...fencedBlock(stdout));
  for (const block of resultBlocks) {
    const table = describeTable(block.body);
    if (table.length > 0) lines.push(...table);
    else lines.push('Its result:', '', ...fencedBlock(block.body.join('\n').trim()));
  }
  if (markdown && resultBlocks.length === 0) lines.push('It showed a table, above.');
  if (charts) lines.push(`It drew ${charts === 1 ? 'an interactive chart' : `${charts} interactive charts`}, shown above.`);
  if (images) lines.push(`It drew ${images === 1 ? 'a figure' : `${images} figures`}, shown above.`);
  const conclusion = stdout?.split('\n').filter(Boolean).at(-1);
  if (conclusion) lines.push('', `So: **${inlineCode(conclusion)}**.`);
  if (lines.length === 2) lines.push('The code ran without printing anything.');
  return lines.join('\n');
}

function openingOf(intent: DemoIntent, tool: string, turn: Turn): string {
  if (intent.kind === 'error-demo') return "Let me compute a mean; I'll check what the code does.";
  if (intent.kind === 'analysis') return analysisOpening(intent.analysis);
  if (intent.kind === 'plot') {
    if (intent.matplotlib) return "I'll plot it with matplotlib.";
    return /\bmatplotlib\b/i.test(turn.request) && turn.packagesUnreachable
      ? "matplotlib can't be downloaded in this browser right now, so I'll draw it as an interactive Vega-Lite chart instead, which needs no package."
      : "I'll draw it as an interactive Vega-Lite chart (no package needed).";
  }
  return tool === 'sql' ? "I'll ask DuckDB, in your browser." : tool === 'graphviz' ? "I'll draw it with Graphviz." : tool === 'r' ? "I'll fit it with R, in your browser." : "I'll compute that with Python.";
}

/** "Now make a chart of it": the last query run again and drawn, or the last question the demo understood. */
function chartOfLast(turn: Turn, context: DemoContext): Plan {
  const dataset = context.dataset;
  const analyses = dataset ? (turn.earlierRequests ?? []).map((request) => understand(request, dataset)).flatMap((u) => (u.kind === 'analysis' ? [u.analysis] : [])) : [];
  const lastSql = turn.lastSql;
  if (lastSql) {
    const same = analyses.find((analysis) => sqlFor(analysis).trim() === lastSql.trim());
    const title = same ? titleOf(same) : 'The last result';
    return { text: "I'll chart the last query's result as an interactive Vega-Lite chart (no package needed), running the query again so the chart has every row.", code: chartOfLastProgram(lastSql, title), tool: 'python' };
  }
  const last = analyses[0];
  if (last) return { text: `I'll chart ${titleOf(last).toLowerCase()} as an interactive Vega-Lite chart (no package needed).`, code: chartOfLastProgram(sqlFor(last), titleOf(last)), tool: 'python' };
  return { text: NOTHING_TO_CHART };
}

export function plan(turn: Turn): Plan {
  const context: DemoContext = { dataset: turn.datasets?.[0] ?? null, packagesUnreachable: turn.packagesUnreachable };
  const intent = recogniseIntent(turn.request, context);
  const lastResult = turn.toolResults.at(-1);
  if (lastResult === undefined) {
    if (intent.kind === 'decline') return { text: intent.text };
    if (intent.kind === 'chart-last') return chartOfLast(turn, context);
    const code = programFor(intent);
    if (!code) return { text: helpText(context) };
    const tool = toolFor(intent);
    return { text: openingOf(intent, tool, turn), code, tool };
  }
  // matplotlib could not be loaded: the same figure as an interactive chart, which needs no package.
  if (/PackageLoadError/.test(lastResult) && intent.kind === 'plot' && turn.toolResults.length < 3 && !turn.lastCode?.includes('vnd.vegalite')) {
    const cause = lastResult.match(/error: ([^\n]+)/)?.[1];
    return { text: `matplotlib could not be loaded in this browser${cause ? ` (${inlineCode(cause)})` : ''}, so I'm drawing it as an interactive Vega-Lite chart instead, which needs no package.`, code: VEGA_LITE_SINE };
  }
  const failedWithTraceback = /^status: error/.test(lastResult) && /error: NameError/.test(lastResult);
  if (failedWithTraceback && turn.lastCode && turn.toolResults.length < 3) {
    const fixed = fixFor(turn.lastCode, lastResult);
    if (fixed) {
      const cause = lastResult.match(/NameError: [^\n]+/)?.[0];
      return { text: `The run failed with ${cause ? inlineCode(cause) : 'a NameError'}. That is a typo in a variable name; fixing it and running again.`, code: fixed };
    }
  }
  return { text: summarize(lastResult) };
}

const CHUNK = 12;

function chunks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += CHUNK) out.push(text.slice(i, i + CHUNK));
  return out;
}

/** Tokens as the demo counts them (about four characters each): plausible figures for the usage it reports. */
function roughTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function promptTokens(call: LanguageModelV4CallOptions): number {
  return roughTokens(JSON.stringify(call.prompt));
}

function streamPlan(planned: Plan, delayMs: number, inputTokens: number, signal?: AbortSignal): ReadableStream<LanguageModelV4StreamPart> {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 'text-0' }];
  for (const delta of chunks(planned.text)) parts.push({ type: 'text-delta', id: 'text-0', delta });
  parts.push({ type: 'text-end', id: 'text-0' });
  if (planned.code) {
    const id = `call_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
    const input = JSON.stringify({ code: planned.code });
    const toolName = planned.tool ?? 'python';
    parts.push({ type: 'tool-input-start', id, toolName });
    for (const delta of chunks(input)) parts.push({ type: 'tool-input-delta', id, delta });
    parts.push({ type: 'tool-input-end', id }, { type: 'tool-call', toolCallId: id, toolName, input });
  }
  const tokens = roughTokens(planned.text) + roughTokens(planned.code ?? '');
  parts.push({
    type: 'finish',
    finishReason: planned.code ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: tokens, text: tokens, reasoning: 0 },
    },
  });
  let index = 0;
  return new ReadableStream({
    async pull(controller) {
      if (signal?.aborted || index >= parts.length) {
        controller.close();
        return;
      }
      if (delayMs > 0 && index > 1) await new Promise((resolve) => setTimeout(resolve, delayMs));
      controller.enqueue(parts[index]);
      index += 1;
    },
  });
}

export function createDemoModel(options: { chunkDelayMs?: number } = {}): LanguageModelV4 {
  const delayMs = options.chunkDelayMs ?? 0;
  return {
    specificationVersion: 'v4',
    provider: 'runpad.demo',
    modelId: 'runpad-demo',
    supportedUrls: {},
    async doStream(call: LanguageModelV4CallOptions) {
      const toolsOffered = (call.tools?.length ?? 0) > 0 && call.toolChoice?.type !== 'none';
      const blocksMode = call.prompt.some((m) => m.role === 'system' && /fenced code block tagged/.test(typeof m.content === 'string' ? m.content : ''));
      const planned = plan(readTurn(call.prompt));
      const fence = planned.tool === 'sql' ? 'sql' : planned.tool === 'graphviz' ? 'dot' : planned.tool === 'r' ? 'r' : 'python';
      // Blocks mode: the same code, written as a fenced block in the text instead of a tool call.
      const final = toolsOffered || !planned.code ? planned : blocksMode ? { text: `${planned.text}\n\n\`\`\`${fence}\n${planned.code.trimEnd()}\n\`\`\`\n` } : { text: `${planned.text}\n\n(The code-run budget for this message is spent.)` };
      return { stream: streamPlan(final, delayMs, promptTokens(call), call.abortSignal) };
    },
    async doGenerate(call: LanguageModelV4CallOptions) {
      const planned = plan(readTurn(call.prompt));
      return {
        content: [{ type: 'text', text: planned.text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: promptTokens(call), noCache: promptTokens(call), cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: roughTokens(planned.text), text: roughTokens(planned.text), reasoning: 0 },
        },
        warnings: [],
      };
    },
  };
}
