/**
 * Each provider's real AI SDK client (the ones the app uses, lib/ai/provider-clients.server.ts) against
 * the fake model server speaking that provider's wire protocol (e2e/fixtures/fake-openai):
 * a turn with a tool call, an error and its fix, an image in a tool result reaching each provider
 * in its own format, the history rebuilt for another provider, and each provider's failures in
 * our words (lib/ai/model-errors.server.ts).
 */
import { streamText, type ModelMessage, type UIMessage } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '@/e2e/fixtures/fake-openai/server.mjs';
import { tools } from './python-tool.server';
import { toModelMessages } from './model-messages.server';
import { apiOf, languageModelFor } from './provider-clients.server';
import { classifyModelError, type ModelError } from './model-errors.server';
import type { ModelEntry } from '@/lib/model-catalog.server';

// A real 2×3 PNG, so the bytes a provider receives are an image's.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEElEQVR4nGP4z8AARAwQCgA3wgL+WxmqDwAAAABJRU5ErkJggg==';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake?.close();
});
beforeEach(() => fake.reset());

type Provider = Exclude<ModelEntry['provider'], 'demo'>;
const PROVIDERS: Provider[] = ['openai', 'anthropic', 'google', 'openai-compatible'];

function entry(provider: Provider): Pick<ModelEntry, 'provider' | 'model' | 'baseURL' | 'apiKey'> {
  const origin = fake.url.replace(/\/v1$/, '');
  return { provider, model: `fake-${provider}`, apiKey: 'test-key', baseURL: provider === 'google' ? `${origin}/v1beta` : fake.url };
}

/** One streamed step through the real client, as handle-chat.ts streams it (no retries). */
async function step(provider: Provider, messages: ModelMessage[]) {
  let failure: unknown = null;
  const result = streamText({ model: await languageModelFor(entry(provider)), messages, tools, maxRetries: 0, onError: ({ error }) => void (failure = error) });
  let text = '';
  const calls: Array<{ toolName: string; input: unknown }> = [];
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') text += part.text;
    if (part.type === 'tool-call') calls.push({ toolName: part.toolName, input: part.input });
    if (part.type === 'error') failure = part.error;
  }
  return { text, calls, failure };
}

type ToolPart = UIMessage['parts'][number];
const run = (id: string, code: string, output: unknown): ToolPart => ({ type: 'tool-python', toolCallId: id, state: 'output-available', input: { code }, output }) as ToolPart;
const failed = { status: 'error', durationMs: 3, outputs: [{ output_type: 'error', ename: 'NameError', evalue: "name 'totl' is not defined", traceback: [] }] };
const plotted = { status: 'ok', durationMs: 9, outputs: [{ output_type: 'stream', name: 'stdout', text: 'total 42\n' }, { output_type: 'display_data', data: { 'image/png': PNG, 'text/plain': '<Figure size 2x3 with 1 Axes>' } }] };

/** The stored conversation after the model's first step, as the page would have completed it. */
function history(calls: Array<{ input: unknown }>, outputs: unknown[]): UIMessage[] {
  return [
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'wire-turn: sum and plot' }] },
    { id: 'a1', role: 'assistant', parts: calls.flatMap((call, i) => [{ type: 'step-start' } as ToolPart, run(`call_${i}`, (call.input as { code: string }).code, outputs[i])]) },
  ];
}

const rebuild = (provider: Provider, messages: UIMessage[], includeImages = true) => toModelMessages(messages, { api: apiOf(provider), includeImages, resolveBlob: async () => null });

/** Where each provider's body carries the image of a tool result, in its own format. */
function imageIn(provider: Provider, request: RecordedRequest): unknown {
  const body = request.body as unknown as Record<string, unknown>;
  const json = JSON.stringify(body);
  if (!json.includes(PNG)) return null;
  if (provider === 'anthropic') {
    const messages = body.messages as Array<{ content: Array<{ type: string; content?: Array<{ type: string; source?: unknown }> }> }>;
    return messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b) => b.type === 'tool_result' && b.content?.some((c) => c.type === 'image'))?.content?.find((c) => c.type === 'image');
  }
  if (provider === 'google') {
    const contents = body.contents as Array<{ parts: Array<Record<string, unknown>> }>;
    const parts = contents.flatMap((c) => c.parts);
    const inside = parts.flatMap((p) => ((p.functionResponse as { parts?: unknown[] } | undefined)?.parts ?? []) as Array<Record<string, unknown>>).find((p) => p.inlineData);
    return inside ?? parts.find((p) => p.inlineData);
  }
  if (provider === 'openai') {
    const input = body.input as Array<{ type?: string; output?: unknown }>;
    const outputs = input.filter((item) => item.type === 'function_call_output').flatMap((item) => (Array.isArray(item.output) ? (item.output as Array<{ type?: string }>) : []));
    return outputs.find((o) => o.type === 'input_image');
  }
  // Chat Completions: tool messages carry text only; the image follows them in a user message.
  const messages = body.messages as Array<{ role: string; content: unknown }>;
  const lastTool = messages.map((m) => m.role).lastIndexOf('tool');
  expect(JSON.stringify(messages.filter((m) => m.role === 'tool'))).not.toContain(PNG);
  const after = messages[lastTool + 1];
  return Array.isArray(after?.content) ? after.content.find((c: { type?: string }) => c.type === 'image_url') : null;
}

describe.each(PROVIDERS)('%s wire protocol through the AI SDK client', (provider) => {
  it('runs a turn: a tool call, an error, a fix, then an answer that saw the image', async () => {
    fake.addScenarios([
      {
        trigger: 'wire-turn',
        steps: [
          { text: 'Let me compute.', toolCall: { name: 'python', arguments: { code: 'print(totl)' } } },
          { toolCall: { name: 'python', arguments: { code: 'total = 42\nprint("total", total)\nplot()' } } },
          { echoToolResult: true, prefix: 'Saw: ' },
        ],
      },
    ]);
    const first = await step(provider, await rebuild(provider, [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'wire-turn: sum and plot' }] }]));
    expect(first.failure).toBeNull();
    expect(first.text).toBe('Let me compute.');
    expect(first.calls).toEqual([{ toolName: 'python', input: { code: 'print(totl)' } }]);

    const second = await step(provider, await rebuild(provider, history(first.calls, [failed])));
    expect(second.failure).toBeNull();
    expect(second.calls[0]?.input).toEqual({ code: 'total = 42\nprint("total", total)\nplot()' });

    const third = await step(provider, await rebuild(provider, history([...first.calls, ...second.calls], [failed, plotted])));
    expect(third.failure).toBeNull();
    expect(third.text).toContain('Saw: ');
    expect(third.text).toContain('total 42');

    const requests = fake.requests();
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.protocol))).toEqual(new Set([{ openai: 'openai-responses', anthropic: 'anthropic', google: 'gemini', 'openai-compatible': 'openai-chat' }[provider]]));
    // The error reached the model as the tool's result, in the provider's format.
    expect(JSON.stringify(requests[1].body)).toContain("NameError: name 'totl' is not defined");
    // The figure reached it as an image of the tool result, in the provider's own shape.
    const image = imageIn(provider, requests[2]);
    expect(image).toBeTruthy();
    expect(JSON.stringify(image)).toMatch(/image\/png/);
  });

  it('an image-less model gets the figure in words, never the PNG', async () => {
    fake.addScenarios([{ trigger: 'wire-turn', steps: [{ toolCall: { name: 'python', arguments: { code: 'plot()' } } }, { echoToolResult: true }] }]);
    const done = await step(provider, await rebuild(provider, history([{ input: { code: 'plot()' } }], [plotted]), false));
    expect(done.failure).toBeNull();
    const body = JSON.stringify(fake.requests()[0].body);
    expect(body).not.toContain(PNG);
    expect(body).toContain('PNG, 2×3 px');
    expect(body).toContain('<Figure size 2x3 with 1 Axes>');
  });

  it('maps a 429 with retry-after, an overload, a refused key, an unknown model and a too-long context to our words', async () => {
    const overload = provider === 'anthropic' ? 529 : 503;
    const contextWords = {
      openai: "Your input exceeds the context window of this model. (context_length_exceeded)",
      anthropic: 'prompt is too long: 250000 tokens > 200000 maximum',
      google: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
      'openai-compatible': "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
    }[provider];
    const cases: Array<[string, Record<string, unknown>, Partial<ModelError>]> = [
      ['limit', { status: 429, headers: { 'retry-after': '7' } }, { cause: 'rate-limited', retryable: true, retryAfterSeconds: 7 }],
      ['busy', { status: overload }, { cause: 'provider', retryable: true }],
      ['key', { status: 401 }, { cause: 'auth', retryable: false }],
      ['gone', { status: 404 }, { cause: 'model-not-found', retryable: false }],
      ['long', { status: 400, message: contextWords }, { cause: 'context-too-long', retryable: false }],
    ];
    fake.addScenarios(cases.map(([trigger, fault]) => ({ trigger, steps: [{ fault: fault as { status: number } }] })));
    for (const [trigger, , expected] of cases) {
      const { failure } = await step(provider, [{ role: 'user', content: trigger }]);
      const classified = classifyModelError(failure, { apiKeyVariable: 'ANTHROPIC_API_KEY', configVariable: 'RUNPAD_MODELS' });
      expect(classified, `${provider} ${trigger}`).toMatchObject(expected);
    }
    const limited = fake.requests()[0];
    expect(limited.protocol).toBe({ openai: 'openai-responses', anthropic: 'anthropic', google: 'gemini', 'openai-compatible': 'openai-chat' }[provider]);
    // The words name the model's own settings.
    const { failure } = await step(provider, [{ role: 'user', content: 'key' }]);
    expect(classifyModelError(failure, { apiKeyVariable: 'ANTHROPIC_API_KEY', configVariable: 'RUNPAD_MODELS' }).message).toContain('ANTHROPIC_API_KEY');
    expect(classifyModelError(failure, { apiKeyVariable: 'ANTHROPIC_API_KEY', configVariable: 'RUNPAD_MODELS' }).message).not.toContain('test-key');
  });
});

describe('switching provider mid-conversation', () => {
  it('the same stored turn is rebuilt for each provider, and each answers from it', async () => {
    fake.addScenarios([{ trigger: 'wire-turn', steps: [{ toolCall: { name: 'python', arguments: { code: 'x' } } }, { echoToolResult: true, prefix: 'From storage: ' }] }]);
    const stored = history([{ input: { code: 'total = 42\nprint("total", total)' } }], [plotted]);
    for (const provider of PROVIDERS) {
      const answer = await step(provider, await rebuild(provider, stored));
      expect(answer.failure, provider).toBeNull();
      expect(answer.text, provider).toContain('total 42');
    }
    expect(fake.requests().map((r) => r.protocol)).toEqual(['openai-responses', 'anthropic', 'gemini', 'openai-chat']);
    // Over HTTP, specs that read Chat Completions bodies see only those unless they ask for all.
    const origin = fake.url.replace(/\/v1$/, '');
    const listed = async (query: string) => ((await (await fetch(`${origin}/__requests${query}`)).json()) as RecordedRequest[]).map((r) => r.protocol);
    expect(await listed('')).toEqual(['openai-chat']);
    expect(await listed('?all=1')).toEqual(['openai-responses', 'anthropic', 'gemini', 'openai-chat']);
  });
});
