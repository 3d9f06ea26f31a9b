import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { ModelConfig } from '@/lib/config.server';
import type { Db } from '@/lib/db/client.server';
import { openForTests, serverBackend } from '@/lib/testing/databases';
import { createConversation, getConversation } from '@/lib/db/queries/conversations.server';
import { capturedLog } from '@/lib/testing/captured-log';
import { maybeGenerateTitle } from './titles.server';

const USER = crypto.randomUUID();
const FIRST_MESSAGE = 'Check the claims of patient 7301-552-981 against the ledger';

/**
 * An OpenAI-compatible server that answers the title request (asked without `stream`) as a stream,
 * as some servers and proxies do: the SDK cannot parse it as JSON, and its error carries the body,
 * a title that echoes the user's words.
 */
function streamingServer(): http.Server {
  return http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunks = ['Claims of patient', ' 7301-552-981', ' against the ledger'].map(
        (content, i) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'fake', choices: [{ index: 0, delta: i === 0 ? { role: 'assistant', content } : { content }, finish_reason: null }] })}\n\n`,
      );
      response.end(`${chunks.join('')}data: [DONE]\n\n`);
    });
  });
}

describe('a title the model’s server answers in a form the SDK cannot read', () => {
  let db: Db;
  const live = openForTests(serverBackend(), [USER], (opened) => (db = opened.db));
  const server = streamingServer();
  let baseURL = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  live('is logged by what failed, never with the model’s output or the user’s words, and the first message names the conversation', async () => {
    const conversation = await createConversation(db, USER);
    const model: ModelConfig = { id: 'fake', provider: 'openai-compatible', model: 'fake', label: 'Fake', baseURL, tools: true, images: true, contextTokens: null, apiKeyVariable: null, configVariable: 'RUNPAD_MODELS', price: null, chunkDelayMs: 0 };
    const messages: UIMessage[] = [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: FIRST_MESSAGE }] }];
    const { log, lines } = capturedLog();
    await maybeGenerateTitle(db, USER, conversation.id, messages, model, { answerId: 'a1', modelSees: 'outputs' }, log);

    expect((await getConversation(db, USER, conversation.id))?.title).toBe(FIRST_MESSAGE);
    const line = lines.find((l) => l.msg === 'title not generated; the first message names the conversation');
    expect(line, 'the failure is logged').toBeDefined();
    const written = JSON.stringify(lines);
    for (const words of ['7301-552-981', 'Claims of patient', 'ledger', 'chat.completion.chunk']) expect(written).not.toContain(words);
    let link = line?.err as { type?: string; message?: string; cause?: unknown } | undefined;
    const types: string[] = [];
    for (; link; link = link.cause as typeof link) types.push(String(link.type));
    expect(types.some((type) => /JSONParseError/.test(type)), `the cause chain names the parse failure (${types.join(' ← ')})`).toBe(true);
  });
});
