/**
 * Model latency and tokens, read from the AI SDK's stream of one model request as it passes
 * (lib/chat/handle-chat.server.ts wraps `streamText(...).stream` with it): the time to the model's first
 * chunk of answer, the time to the answer's end with its outcome, the tokens the model reported
 * at the end, and the answers streaming right now. The chunks pass unchanged.
 */
import 'server-only';
import { metrics } from './registry.server';

type Outcome = 'finished' | 'failed' | 'aborted';

/** Chunks the SDK writes itself, before or around what the model sends. */
const NOT_FROM_THE_MODEL = new Set(['start', 'start-step', 'finish-step', 'finish', 'error', 'abort', 'raw']);

type Usage = { inputTokens?: number | undefined; outputTokens?: number | undefined };
type StreamChunk = { type: string; totalUsage?: Usage };

export function observeModelStream<T extends StreamChunk>(source: ReadableStream<T>, modelId: string): ReadableStream<T> {
  const m = metrics();
  const startedAt = performance.now();
  const seconds = () => (performance.now() - startedAt) / 1000;
  let firstChunkSeen = false;
  let outcome: Outcome = 'finished';
  let ended = false;
  m.answerStreams.inc();
  const end = (final: Outcome) => {
    if (ended) return;
    ended = true;
    m.answerStreams.dec();
    m.modelDuration.observe({ model: modelId, outcome: final }, seconds());
  };
  const see = (chunk: T) => {
    if (!firstChunkSeen && !NOT_FROM_THE_MODEL.has(chunk.type)) {
      firstChunkSeen = true;
      m.modelFirstChunk.observe({ model: modelId }, seconds());
    }
    if (chunk.type === 'error') outcome = 'failed';
    else if (chunk.type === 'abort' && outcome !== 'failed') outcome = 'aborted';
    else if (chunk.type === 'finish' && chunk.totalUsage) {
      const { inputTokens, outputTokens } = chunk.totalUsage;
      if (inputTokens) m.modelTokens.inc({ model: modelId, kind: 'input' }, inputTokens);
      if (outputTokens) m.modelTokens.inc({ model: modelId, kind: 'output' }, outputTokens);
    }
  };
  const reader = source.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      let next: ReadableStreamReadResult<T>;
      try {
        next = await reader.read();
      } catch (error) {
        end('failed');
        controller.error(error);
        return;
      }
      if (next.done) {
        end(outcome);
        controller.close();
        return;
      }
      see(next.value);
      controller.enqueue(next.value);
    },
    async cancel(reason) {
      end('aborted');
      await reader.cancel(reason);
    },
  });
}
