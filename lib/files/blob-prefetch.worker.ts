/**
 * Reads a dropped file ahead of the engine that reads it (lib/files/prefetch-ring.ts): started by
 * the page for a file an engine reads in place (lib/files/blob-prefetch.client.ts), it fills the
 * shared ring from the `File` it is handed, and blocks between fills. It runs no code but this and
 * needs no network.
 */
import { z } from 'zod';
import { fillRing } from '@/lib/files/prefetch-ring';

// SharedArrayBuffer exists only where the page is cross-origin isolated (it always is: the engines need it).
const shared = z.custom<SharedArrayBuffer>((value) => typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer);
const startSchema = z.object({
  file: z.instanceof(Blob),
  ring: z.object({ control: shared, data: shared, size: z.number().int().nonnegative(), slotBytes: z.number().int().positive() }),
});

self.addEventListener(
  'message',
  (event: MessageEvent) => {
    const start = startSchema.safeParse(event.data);
    if (!start.success) return;
    const { file, ring } = start.data;
    const reader = new FileReaderSync();
    fillRing(ring, (target, position) => {
      const bytes = new Uint8Array(reader.readAsArrayBuffer(file.slice(position, position + target.byteLength)));
      target.set(bytes);
      return bytes.byteLength;
    });
    self.close();
  },
  { once: true },
);
