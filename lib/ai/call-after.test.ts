import { describe, expect, it, vi } from 'vitest';
import { streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { callProviderAfter, ModelInputNotRecordedError } from './call-after.server';
import { classifyModelError } from './model-errors.server';

vi.mock('server-only', () => ({}));

const answer = (events: string[]) =>
  new MockLanguageModelV4({
    doStream: async () => {
      events.push('provider asked');
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'hello' });
            controller.enqueue({ type: 'text-end', id: 't' });
            controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } } });
            controller.close();
          },
        }),
      };
    },
  });

describe('the provider is asked after the record, and after the turn that answers the browser', () => {
  it('records first, then asks the provider; nothing of either happens in the turn that started the answer', async () => {
    const events: string[] = [];
    const model = callProviderAfter(answer(events), async () => {
      events.push('recorded');
    });
    const result = streamText({ model, prompt: 'hi' });
    const reader = result.textStream.getReader();
    // Everything the same turn can do (every queued promise callback) runs first: the record and
    // the provider wait for a later turn, as the answer's first byte does not.
    for (let i = 0; i < 50; i += 1) await Promise.resolve();
    events.push('first byte written');
    let text = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
    expect(text).toBe('hello');
    expect(events).toEqual(['first byte written', 'recorded', 'provider asked']);
  });

  it('records once however many calls the answer makes', async () => {
    const events: string[] = [];
    const model = callProviderAfter(answer(events), async () => {
      events.push('recorded');
    });
    await Promise.all([streamText({ model, prompt: 'a' }).text, streamText({ model, prompt: 'b' }).text]);
    expect(events.filter((e) => e === 'recorded')).toHaveLength(1);
    expect(events.filter((e) => e === 'provider asked')).toHaveLength(2);
  });

  it('a record that fails sends nothing, and says so in words', async () => {
    const events: string[] = [];
    const model = callProviderAfter(answer(events), async () => {
      throw new Error('database unreachable');
    });
    const errors: unknown[] = [];
    const result = streamText({ model, prompt: 'hi', onError: ({ error }) => void errors.push(error) });
    await result.consumeStream();
    expect(events).toEqual([]);
    expect(errors[0]).toBeInstanceOf(ModelInputNotRecordedError);
    expect(classifyModelError(errors[0])).toMatchObject({ cause: 'not-recorded', retryable: true, message: expect.stringMatching(/could not record .* nothing was sent/) });
  });
});
