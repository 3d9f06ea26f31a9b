/**
 * The toy target's engine: a dedicated worker that takes one private port (the `connect` message,
 * lib/targets/runner-state.client.ts) and answers each `{ id, code }` on it with the code reversed.
 */
import { reversed, type ToyReply } from '../protocol';

self.addEventListener('message', (event: MessageEvent) => {
  const port: unknown = event.data?.port;
  if (event.data?.type !== 'connect' || !(port instanceof MessagePort)) return;
  port.onmessage = ({ data }: MessageEvent<{ id: number; code: string }>) => {
    port.postMessage({ id: data.id, text: reversed(data.code) } satisfies ToyReply);
  };
});
