/**
 * The model's idle timeout, measured on the wire: a `fetch` for the provider that fails the
 * request when no byte of any kind (headers, an SSE keep-alive comment, a chunk) has arrived for
 * `idleMs`. The AI SDK's own first-chunk/chunk timers count parsed answer chunks only, and were
 * seen never to fire on a response that sent its headers and then went silent; this one counts
 * from the last byte and ends the body with a TimeoutError (lib/ai/model-errors.server.ts: cause timeout).
 */
import 'server-only';

export function idleTimeoutError(idleMs: number): DOMException {
  return new DOMException(`The model sent nothing for ${idleMs} ms: timeout of idle ms exceeded`, 'TimeoutError');
}

/**
 * onIdle: called instead of failing the body, so the caller can abort the whole call the way the
 * SDK expects (its abort path ends the answer cleanly; lib/chat/handle-chat.server.ts words it as the timeout).
 */
export function idleTimeoutFetch(idleMs: number, onIdle?: () => void, base: typeof globalThis.fetch = globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    const controller = new AbortController();
    const outer = init?.signal;
    const onOuterAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (onIdle: () => void) => {
      clearTimeout(timer);
      timer = setTimeout(onIdle, idleMs);
    };
    const done = () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    };
    arm(() => (onIdle ? onIdle() : controller.abort(idleTimeoutError(idleMs))));
    let response: Response;
    try {
      response = await base(input, { ...init, signal: controller.signal });
    } catch (error) {
      done();
      throw controller.signal.reason instanceof DOMException && controller.signal.reason.name === 'TimeoutError' ? controller.signal.reason : error;
    }
    if (!response.body) {
      done();
      return response;
    }
    const reader = response.body.getReader();
    let expire = () => undefined as void;
    const body = new ReadableStream<Uint8Array>({
      start(streamController) {
        expire = () => {
          if (onIdle) return onIdle();
          streamController.error(idleTimeoutError(idleMs));
          controller.abort(idleTimeoutError(idleMs));
          void reader.cancel().catch(() => undefined); // the stream has already failed with the timeout; a failing cancel adds nothing
        };
        arm(expire);
      },
      async pull(streamController) {
        try {
          const { done: ended, value } = await reader.read();
          if (ended) {
            done();
            streamController.close();
            return;
          }
          // Any byte counts: the timer restarts from the last one that arrived. (The SDK reads as
          // bytes come, so waiting on a slow reader is not mistaken for a silent model.)
          arm(expire);
          streamController.enqueue(value);
        } catch (error) {
          done();
          // After the idle timer errored the stream, this second error is a no-op.
          streamController.error(error);
        }
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
