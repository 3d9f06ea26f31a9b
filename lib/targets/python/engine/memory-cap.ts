/**
 * Caps the interpreter's memory while a run is in progress, not only after it. Emscripten grows
 * the wasm heap through `WebAssembly.Memory.prototype.grow`; refusing growth there makes malloc
 * fail, so Python raises MemoryError inside the run instead of the tab running out of memory.
 * The kernel is told at once (it then stops the run and replaces the interpreter).
 */
import type { MemoryLimitMessage } from '@/lib/targets/python/worker-api.client';

const PAGE_BYTES = 65_536;

/** `notify` tells the kernel (on its private port, once connected). */
export function capMemoryGrowth(maxBytes: number, notify: (message: MemoryLimitMessage) => void): void {
  const grow = WebAssembly.Memory.prototype.grow;
  // Not writable, not configurable: code in the interpreter cannot put the original back.
  Object.defineProperty(WebAssembly.Memory.prototype, 'grow', {
    value: function growWithinLimit(this: WebAssembly.Memory, deltaPages: number): number {
      const requestedBytes = this.buffer.byteLength + deltaPages * PAGE_BYTES;
      if (requestedBytes > maxBytes) {
        const message: MemoryLimitMessage = { type: 'runpad:memory-limit', requestedBytes, limitBytes: maxBytes };
        notify(message);
        throw new RangeError(`The interpreter's memory limit (${maxBytes} bytes) was reached.`);
      }
      return grow.call(this, deltaPages);
    },
    writable: false,
    configurable: false,
  });
}
