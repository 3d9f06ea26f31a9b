/**
 * The built-in offline demo model (a LanguageModelV4), used when no model is configured. It
 * writes real Python for a few kinds of request (lib/ai/demo-programs.ts) and then summarizes
 * what the code actually produced, read from the tool result in its prompt.
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { fixFor, HELP_TEXT, programFor, recogniseIntent, toolFor } from './demo-programs';

type Turn = { request: string; toolResults: string[]; lastCode: string | null };

/** The user's last message, and the tool results and code that came after it. */
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
  return { request, toolResults, lastCode };
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

function section(result: string, name: string): string | null {
  const match = result.match(new RegExp(`(?:^|\\n)${name}:\\n([\\s\\S]*?)(?=\\n(?:stdout|stderr|result|display|error|notice|wrote)[: (]|$)`));
  return match ? match[1].trim() : null;
}

/** What to say after a run: quotes what the code really produced. */
export function summarize(result: string): string {
  const status = result.match(/^status: (\w+)/)?.[1] ?? 'unknown';
  const stdout = section(result, 'stdout');
  const value = section(result, 'result');
  const error = result.match(/error: ([^\n]+)/)?.[1];
  const lines = ['*(Offline demo model.)*', ''];
  if (/PackageLoadError/.test(result)) {
    lines.push(`The code needs a package that could not be loaded here: ${error ? inlineCode(error) : 'see the error above'}.`, '', 'The package source is not reachable from this browser. An administrator can self-host the packages with `npm run mirror -- python`.');
    return lines.join('\n');
  }
  if (status !== 'ok') {
    lines.push(`The run ended with status **${status}**${error ? `: ${inlineCode(error)}` : ''}.`);
    return lines.join('\n');
  }
  const images = (result.match(/\[image \d+/g) ?? []).length;
  if (stdout) lines.push('The code printed:', '', ...fencedBlock(stdout));
  if (value) lines.push('Its result:', '', ...fencedBlock(value));
  if (images) lines.push(`It drew ${images === 1 ? 'a figure' : `${images} figures`}, shown above.`);
  const conclusion = stdout?.split('\n').filter(Boolean).at(-1);
  if (conclusion) lines.push('', `So: **${inlineCode(conclusion)}**.`);
  if (!stdout && !value && !images) lines.push('The code ran without printing anything.');
  return lines.join('\n');
}

export function plan(turn: Turn): Plan {
  const intent = recogniseIntent(turn.request);
  const lastResult = turn.toolResults.at(-1);
  if (lastResult === undefined) {
    const code = programFor(intent);
    if (!code) return { text: HELP_TEXT };
    const tool = toolFor(intent);
    const opening = intent.kind === 'error-demo' ? "Let me compute a mean; I'll check what the code does." : tool === 'sql' ? "I'll ask DuckDB, in your browser." : tool === 'graphviz' ? "I'll draw it with Graphviz." : tool === 'r' ? "I'll fit it with R, in your browser." : "I'll compute that with Python.";
    return { text: opening, code, tool };
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
