import { createOpenAI } from '@ai-sdk/openai';
import { streamText } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '@/e2e/fixtures/fake-openai/server.mjs';
import { classifyModelError } from './model-errors.server';

vi.mock('server-only', () => ({}));
const { idleTimeoutFetch } = await import('./idle-timeout-fetch.server');

let server: FakeOpenAI;
beforeAll(async () => {
  server = await startFakeOpenAI();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** Streams one answer through the idle-timeout fetch; returns its text and its error's cause. */
async function answer(trigger: string, idleMs: number) {
  const model = createOpenAI({ baseURL: server.url, apiKey: 'test', fetch: idleTimeoutFetch(idleMs) }).chat('fake-model');
  const errors: unknown[] = [];
  const result = streamText({ model, messages: [{ role: 'user', content: trigger }], maxRetries: 0, onError: ({ error }) => void errors.push(error) });
  let text = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') text += part.text;
    if (part.type === 'error') errors.push(part.error);
  }
  return { text, cause: errors.length > 0 ? classifyModelError(errors[0]).cause : null };
}

describe('the model idle timeout counts from the last byte of any kind', () => {
  it('ends a response that sent headers and a keep-alive comment, then nothing, as a timeout', async () => {
    server.addScenarios([{ trigger: 'silent-after-comment', steps: [{ fault: { hang: 'after-headers', comment: true } }] }]);
    expect(await answer('silent-after-comment', 500)).toEqual({ text: '', cause: 'timeout' });
  });

  it('ends a response that never sent its headers as a timeout', async () => {
    server.addScenarios([{ trigger: 'silent-before-headers', steps: [{ fault: { hang: 'before-headers' } }] }]);
    expect((await answer('silent-before-headers', 500)).cause).toBe('timeout');
  });

  it('with onIdle, leaves the ending to the caller: it is told once, when the silence passes the limit', async () => {
    server.addScenarios([{ trigger: 'silent-for-caller', steps: [{ fault: { hang: 'after-headers', afterChunks: 1 }, text: 'Some text, then silence' }] }]);
    const stop = new AbortController();
    const onIdle = vi.fn(() => stop.abort());
    const model = createOpenAI({ baseURL: server.url, apiKey: 'test', fetch: idleTimeoutFetch(500, onIdle) }).chat('fake-model');
    const result = streamText({ model, messages: [{ role: 'user', content: 'silent-for-caller' }], maxRetries: 0, abortSignal: stop.signal, onError: () => undefined });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(onIdle).toHaveBeenCalledTimes(1);
    expect(types).toContain('text-delta');
    expect(types.at(-1)).toBe('abort');
  });

  it('keeps a slow answer whose chunks each come within the limit', async () => {
    server.addScenarios([{ trigger: 'slow-but-steady', chunkDelayMs: 150, chunkChars: 4, steps: [{ text: 'one chunk at a time, steadily' }] }]);
    expect(await answer('slow-but-steady', 1_500)).toEqual({ text: 'one chunk at a time, steadily', cause: null });
  });
});
