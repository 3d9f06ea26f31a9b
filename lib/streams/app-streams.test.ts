/**
 * A reader that asks for the live answer between its request being accepted (the registry names
 * it) and its first bytes reaching the stream store (another instance asked at once, or a reload
 * right after sending) gets the answer from its first chunk, not "nothing is being written".
 */
import { afterAll, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));

const { getAppStreams, resumeLiveAnswer } = await import('./app-streams.server');

async function text(stream: ReadableStream<string>): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += chunk;
  return out;
}

/** An answer being written: its first chunk now, the rest when `end` is called. */
function writing(first: string): { stream: ReadableStream<string>; end: (last: string) => void } {
  let end: (last: string) => void = () => undefined;
  const stream = new ReadableStream<string>({
    start(controller) {
      controller.enqueue(first);
      end = (last) => {
        controller.enqueue(last);
        controller.close();
      };
    },
  });
  return { stream, end: (last) => end(last) };
}

describe('resuming the live answer', () => {
  afterAll(async () => (await getAppStreams()).streams.close());

  it('waits for an answer the registry names until its first bytes are in the store', async () => {
    const { registry, streams } = await getAppStreams();
    const conversation = crypto.randomUUID();
    const streamId = crypto.randomUUID();
    await registry.start(conversation, streamId);
    // Asked before the answer's copy exists in the store: without waiting it would be "none".
    const resumed = resumeLiveAnswer(conversation);
    let settled = false;
    void resumed.finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    const answer = writing('data: a\n\n');
    const own = await streams.context.createNewResumableStream(streamId, () => answer.stream);
    const ownText = own ? text(own) : Promise.resolve('');
    const theirs = await resumed;
    expect(theirs).not.toBeNull();
    answer.end('data: b\n\n');
    expect(await text(theirs!)).toBe('data: a\n\ndata: b\n\n');
    expect(await ownText).toBe('data: a\n\ndata: b\n\n');
    await registry.finish(conversation, streamId);
  });

  it('answers none at once when nothing is being written, and none after its wait when the answer never reaches the store', async () => {
    const { registry } = await getAppStreams();
    expect(await resumeLiveAnswer(crypto.randomUUID())).toBeNull();
    const conversation = crypto.randomUUID();
    const streamId = crypto.randomUUID();
    await registry.start(conversation, streamId);
    expect(await resumeLiveAnswer(conversation, 100)).toBeNull();
    await registry.finish(conversation, streamId);
  });
});
