/**
 * What the model sees, through the real chat handler (route() and handleChat, embedded PGlite):
 * under `schema`, a value planted in a dropped file's preview and in a run's outputs reaches no
 * request the model receives, while column names and an error do; the conversation cannot be
 * widened again by a request; the operator's RUNPAD_MODEL_SEES applies with no setting at all; and
 * the record of what was sent holds the text the model received.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DbHandle } from '@/lib/db/client.server';
import type { Logger } from '@/lib/log/logger.server';
import { capturedLog } from '@/lib/testing/captured-log';

const SECRET = 'ZEBRA-4417';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The model: records each prompt it receives; answers the first request of a turn with a python call, the next with text. */
const model = vi.hoisted(() => ({ prompts: [] as unknown[], next: [] as Array<'call' | 'text'> }));
vi.mock('@/lib/ai/provider.server', () => ({
  getLanguageModel: async () => ({
    specificationVersion: 'v4',
    provider: 'recording',
    modelId: 'recording',
    supportedUrls: {},
    doGenerate: async () => {
      throw new Error('not used');
    },
    doStream: async (options: { prompt: unknown }) => {
      model.prompts.push(options.prompt);
      const kind = model.next.shift() ?? 'text';
      const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
      const parts =
        kind === 'call'
          ? [{ type: 'stream-start', warnings: [] }, { type: 'tool-call', toolCallId: 'call_1', toolName: 'python', input: JSON.stringify({ code: 'print(df)' }) }, { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage }]
          : [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Done.' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage }];
      return { stream: new ReadableStream({ start: (controller) => { for (const part of parts) controller.enqueue(part); controller.close(); } }) };
    },
  }),
}));

const preview = `/sales.csv (1 KB, CSV, 2 rows): columns customer (string), amount (number)\nfirst 1 row:\ncustomer | amount\n${SECRET} | 10`;
const runResult = {
  status: 'error',
  durationMs: 20,
  outputs: [
    { output_type: 'stream', name: 'stdout', text: `customer ${SECRET}\n` },
    { output_type: 'display_data', data: { 'application/vnd.dataresource+json': { schema: { fields: [{ name: 'customer', type: 'string' }] }, data: [{ customer: SECRET }] } } },
    { output_type: 'display_data', data: { 'image/png': PNG } },
    { output_type: 'error', ename: 'KeyError', evalue: `'${SECRET}'`, traceback: [] },
  ],
};

describe('what the model sees, through the chat handler', () => {
  let dataDir: string;
  const { log } = capturedLog();

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-model-sees-'));
    vi.stubEnv('DATABASE_URL', '');
    vi.stubEnv('REDIS_URL', '');
    vi.stubEnv('RUNPAD_DATA_DIR', dataDir);
    vi.stubEnv('S3_BUCKET', '');
    vi.stubEnv('RUNPAD_MODELS', '');
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('OPENAI_BASE_URL', '');
    vi.stubEnv('RUNPAD_MODEL_SEES', '');
    vi.resetModules();
    (globalThis as unknown as { runpadLogger?: Logger }).runpadLogger = log;
  });
  afterAll(async () => {
    const app = globalThis as unknown as { runpadDb?: Promise<DbHandle>; runpadBlobStore?: unknown; runpadStreams?: Promise<{ streams: { close(): Promise<void> }; registry: { close(): Promise<void> } }>; runpadRateLimits?: unknown };
    const [db, streams] = [app.runpadDb, app.runpadStreams];
    Object.assign(app, { runpadDb: undefined, runpadBlobStore: undefined, runpadStreams: undefined, runpadRateLimits: undefined });
    await streams?.then(async ({ streams: context, registry }) => Promise.all([context.close(), registry.close()]));
    await db?.then((h) => h.close());
    vi.unstubAllEnvs();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function guest() {
    const { getDb } = await import('@/lib/db/client.server');
    const { getPerson, insertGuest } = await import('@/lib/db/queries/users.server');
    const db = await getDb();
    const id = crypto.randomUUID();
    await insertGuest(db, id);
    const person = (await getPerson(db, id))!;
    return { userId: id, kind: 'guest' as const, email: null, name: null, isAdmin: false, sessionId: null, person, address: '192.0.2.8' };
  }

  /** POST /api/chat as route() answers it, read to its end. */
  async function chat(identity: Awaited<ReturnType<typeof guest>>, body: unknown): Promise<string> {
    const { route } = await import('@/lib/http/route.server');
    const { handleChat } = await import('@/lib/chat/handle-chat.server');
    const { chatRequestSchema } = await import('@/lib/chat/request-schema.server');
    const { ServerTiming } = await import('@/lib/http/server-timing.server');
    const request = chatRequestSchema.parse(body);
    const response = await route(async ({ requestId }) => handleChat({ identity, request, timing: new ServerTiming(), requestId, log: log.child({ requestId }) }))(new Request('http://app.test/api/chat'));
    expect(response.status).toBe(200);
    return response.text();
  }

  async function storedAnswer(conversationId: string) {
    const { getDb } = await import('@/lib/db/client.server');
    const { listMessages } = await import('@/lib/db/queries/messages.server');
    let answer: { id: string; parts: unknown[]; metadata?: unknown } | undefined;
    await vi.waitFor(async () => {
      answer = (await listMessages(await getDb(), conversationId)).find((m) => m.role === 'assistant' && JSON.stringify(m.metadata ?? {}).includes('"streaming":true') === false);
      expect(answer).toBeDefined();
    }, { timeout: 20_000, interval: 100 });
    return answer!;
  }

  /** A turn: the user's message with a dropped file, the model's python call, its outputs, the model's answer. */
  async function turn(identity: Awaited<ReturnType<typeof guest>>, conversationId: string, settings: Record<string, unknown>, outputSettings: Record<string, unknown>) {
    model.next.push('call', 'text');
    const user = { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'summarise the sales' }], metadata: { files: [{ name: 'sales.csv', size: 1024, mediaType: 'text/csv', sha256: 'c'.repeat(64), preview }] } };
    await chat(identity, { id: conversationId, message: user, settings });
    const called = await storedAnswer(conversationId);
    const parts = (called.parts as Array<Record<string, unknown>>).map((part) => (part.type === 'tool-python' ? { ...part, state: 'output-available', output: runResult } : part));
    await chat(identity, { id: conversationId, message: { id: called.id, role: 'assistant', parts, metadata: called.metadata }, settings: outputSettings });
    return called.id;
  }

  it('under schema (asked for by the conversation) no value reaches the model; names and the error do; a request cannot widen it; the record is what the model got', async () => {
    const identity = await guest();
    const conversationId = crypto.randomUUID();
    model.prompts.length = 0;
    // The first request asks for schema; the second (the outputs) asks for outputs: it cannot widen it.
    const answerId = await turn(identity, conversationId, { modelSees: 'schema' }, { modelSees: 'outputs' });
    expect(model.prompts).toHaveLength(2);
    const received = JSON.stringify(model.prompts);
    expect(received).not.toContain(SECRET);
    expect(received).not.toContain(PNG);
    expect(received).toContain('columns customer (string), amount (number)');
    expect(received).toContain('error: KeyError: <string>');
    expect(received).toContain('a table of 1 rows × 1 columns; columns: customer (string)');
    expect(received).toContain('display: a figure shown to the user (PNG); its image is not sent');

    // The record: one per request, under the answer, each text item exactly as the model received it.
    const { getDb } = await import('@/lib/db/client.server');
    const { listModelInputs, modelInputTotals } = await import('@/lib/db/queries/model-inputs.server');
    const records = await listModelInputs(await getDb(), conversationId, answerId);
    expect(records.map((r) => r.modelSees)).toEqual(['schema', 'schema']);
    for (const [index, record] of records.entries()) {
      const prompt = JSON.stringify(model.prompts[index]);
      expect(prompt).toContain(JSON.stringify(record.content.system).slice(1, -1));
      for (const message of record.content.messages) {
        for (const item of message.items) {
          if (item.kind !== 'text' || item.text === '') continue;
          // A call's input is sent as the JSON text recorded; the prompt holds it parsed.
          if (item.label.startsWith('call of ')) expect(prompt).toContain(`"input":${item.text}`);
          else expect(prompt).toContain(JSON.stringify(item.text).slice(1, -1));
        }
      }
      const texts = [record.content.system, ...record.content.messages.flatMap((m) => m.items.flatMap((i) => (i.kind === 'text' ? [i.text] : [])))];
      expect(record.textBytes).toBe(texts.reduce((n, t) => n + Buffer.byteLength(t, 'utf8'), 0));
      expect(record.imageBytes).toBe(0);
    }
    const totals = await modelInputTotals(await getDb(), conversationId);
    expect(totals.requests).toBe(2);
    expect(totals.textBytes).toBe(records[0].textBytes + records[1].textBytes);
    // The answer says under which policy it was written.
    expect((await storedAnswer(conversationId)).metadata).toMatchObject({ modelSees: 'schema' });
  });

  it('under outputs (the default) the same turn does reach the model: the test above can fail', async () => {
    const identity = await guest();
    model.prompts.length = 0;
    await turn(identity, crypto.randomUUID(), {}, {});
    const received = JSON.stringify(model.prompts);
    expect(received).toContain(SECRET);
    expect(received).toContain(PNG);
  });

  it("the operator's RUNPAD_MODEL_SEES=schema applies with no setting, and a request cannot widen it", async () => {
    vi.stubEnv('RUNPAD_MODEL_SEES', 'schema');
    vi.resetModules(); // the configuration is read once per module instance
    const identity = await guest();
    model.prompts.length = 0;
    await turn(identity, crypto.randomUUID(), { modelSees: 'outputs' }, { modelSees: 'outputs' });
    expect(JSON.stringify(model.prompts)).not.toContain(SECRET);
    vi.stubEnv('RUNPAD_MODEL_SEES', '');
  });
});
