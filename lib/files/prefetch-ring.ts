/**
 * Reading a file just dropped ahead of the engine that reads it, on another thread.
 *
 * A dropped file not kept yet is read with FileReaderSync (lib/files/device-mount.ts): ~270–410 MB/s
 * in 8–32 MiB reads, on the engine's own thread, between its parsing. DuckDB's CSV reader asks for
 * 32 MB at a time and parses each before asking again, so a 1 GB file spent ~3 s of its query
 * waiting for reads (bench/RESULTS-drop.md). Here a helper worker (lib/files/blob-prefetch.worker.ts)
 * reads the chunks that follow a sequential read into a ring of shared buffers while the engine
 * parses, and the engine copies what it asks for from the ring.
 *
 * The ring is two SharedArrayBuffers: `data`, `SLOTS` slots of `slotBytes`, and `control`, whose
 * Int32 words are the generation, a stop flag and each slot's state and generation, and whose
 * Float64 words are the generation's start and each slot's range. The engine's side (`RingReader`)
 * starts a generation at the position after a sequential read (one that continues the last, or a
 * large one from the file's start); the helper (`fillRing`) fills
 * slot after slot from that position, each once the engine has read past it, and waits (Atomics)
 * when the ring is full. A read the ring does not hold is read directly, as before, and starts a new
 * generation only if it continued the previous read: a random reader (Parquet's footer, then its
 * column chunks) is never slowed by reads it did not need.
 */

export const SLOTS = 2;
export const SLOT_BYTES = 32 * 1024 * 1024;

const GEN = 0;
const STOP = 1;
const ALIVE = 2; // the helper's loop has started
const STATE = 3; // + slot
const SLOT_GEN = STATE + SLOTS; // + slot
const INT_WORDS = SLOT_GEN + SLOTS;
const START = 0; // the generation's first byte
const SLOT_START = 1; // + 2 * slot
const SLOT_LENGTH = 2; // + 2 * slot
const FLOAT_WORDS = 1 + 2 * SLOTS;
const INT_BYTES = Math.ceil((INT_WORDS * 4) / 8) * 8;

/** A read of the file's first bytes at least this large is taken for the start of a scan. */
const FIRST_READ_BYTES = 1024 * 1024;

/** How long a read waits for a slot being filled before reading directly: 30 s in all. */
const FILLING_WAIT_MS = 100;
const FILLING_WAITS = 300;

const FREE = 0;
const FILLING = 1;
const READY = 2;

export type Ring = { control: SharedArrayBuffer; data: SharedArrayBuffer; size: number; slotBytes: number };

/** A ring for a file of `size` bytes. */
export function createRing(size: number, slotBytes = SLOT_BYTES): Ring {
  return { control: new SharedArrayBuffer(INT_BYTES + FLOAT_WORDS * 8), data: new SharedArrayBuffer(SLOTS * slotBytes), size, slotBytes };
}

/** Whether `value` is a ring as `createRing` makes (a worker checks what it is handed). */
export function isRing(value: unknown): value is Ring {
  if (typeof value !== 'object' || value === null || typeof SharedArrayBuffer === 'undefined') return false;
  const { control, data, size, slotBytes } = value as Partial<Ring>;
  return control instanceof SharedArrayBuffer && data instanceof SharedArrayBuffer && Number.isSafeInteger(size) && Number.isSafeInteger(slotBytes) && (slotBytes ?? 0) > 0 && control.byteLength === INT_BYTES + FLOAT_WORDS * 8 && data.byteLength === SLOTS * (slotBytes ?? 0);
}

function views(ring: Ring) {
  return { ints: new Int32Array(ring.control, 0, INT_WORDS), floats: new Float64Array(ring.control, INT_BYTES, FLOAT_WORDS), bytes: new Uint8Array(ring.data) };
}

/** Reads `target.byteLength` bytes at `position` into `target`; the number read. */
export type RangeRead = (target: Uint8Array, position: number) => number;

/**
 * The helper's loop: fills the ring from each generation's start until told to stop. `read` reads
 * the file (FileReaderSync in the worker). Blocks its thread between fills (Atomics.wait).
 */
export function fillRing(ring: Ring, read: RangeRead): void {
  const { ints, floats, bytes } = views(ring);
  let generation = -1;
  let start = 0;
  let next = 0;
  Atomics.store(ints, ALIVE, 1);
  for (;;) {
    if (Atomics.load(ints, STOP) !== 0) return;
    const current = Atomics.load(ints, GEN);
    if (current !== generation) {
      generation = current;
      start = floats[START]!;
      next = start;
    }
    if (generation === 0 || next >= ring.size) {
      Atomics.wait(ints, GEN, generation); // nothing to read until a new generation (or the stop)
      continue;
    }
    const slot = Math.floor((next - start) / ring.slotBytes) % SLOTS;
    const state = Atomics.load(ints, STATE + slot);
    if (state !== FREE) {
      // The engine has not read past this slot yet: wait for it, or for a new generation.
      Atomics.wait(ints, STATE + slot, state, 50);
      continue;
    }
    const length = Math.min(ring.slotBytes, ring.size - next);
    // Filling first, then its range: a reader never sees a range the slot does not hold yet as free.
    Atomics.store(ints, STATE + slot, FILLING);
    floats[SLOT_START + 2 * slot] = next;
    floats[SLOT_LENGTH + 2 * slot] = length;
    Atomics.store(ints, SLOT_GEN + slot, generation);
    Atomics.notify(ints, STATE + slot);
    const got = read(bytes.subarray(slot * ring.slotBytes, slot * ring.slotBytes + length), next);
    floats[SLOT_LENGTH + 2 * slot] = got;
    // A slot filled for a generation the engine has left is not handed on.
    Atomics.store(ints, STATE + slot, Atomics.load(ints, GEN) === generation && got > 0 ? READY : FREE);
    Atomics.notify(ints, STATE + slot);
    next += length;
    if (got < length) next = ring.size; // the file is shorter than it said: stop this generation
  }
}

/** Tells the helper to end its loop. */
export function stopRing(ring: Ring): void {
  const { ints } = views(ring);
  Atomics.store(ints, STOP, 1);
  Atomics.notify(ints, GEN);
  for (let slot = 0; slot < SLOTS; slot += 1) Atomics.notify(ints, STATE + slot);
}

/** Whether the helper's loop has started (a ring no helper fills is never waited for). */
export function ringAlive(ring: Ring): boolean {
  return Atomics.load(views(ring).ints, ALIVE) === 1;
}

/** What a reader did: bytes served from the ring and read directly (for tests and the bench). */
export type RingCounts = { fromRing: number; direct: number };

/**
 * The engine's side: a read the current generation covers is served from the ring (waiting for the
 * helper to fill its slot, which it does at the rate a direct read would); any other directly.
 */
export class RingReader {
  private readonly ints: Int32Array;
  private readonly floats: Float64Array;
  private readonly bytes: Uint8Array;
  private lastEnd = -1;
  /** The helper stopped answering: every read is direct from then on. */
  private gaveUp = false;
  readonly counts: RingCounts = { fromRing: 0, direct: 0 };

  constructor(
    private readonly ring: Ring,
    private readonly direct: RangeRead,
  ) {
    ({ ints: this.ints, floats: this.floats, bytes: this.bytes } = views(ring));
  }

  read(target: Uint8Array, position: number): number {
    const length = Math.min(target.byteLength, this.ring.size - position);
    if (length <= 0) return 0;
    const usable = !this.gaveUp && ringAlive(this.ring);
    // A reader that continues its last read, or starts the file with a large one (a CSV scan), reads on.
    const sequential = usable && (position === this.lastEnd || (position === 0 && length >= FIRST_READ_BYTES));
    let copied = 0;
    while (usable && copied < length) {
      const served = this.fromRing(target.subarray(copied, length), position + copied);
      if (served === 0) break;
      copied += served;
    }
    this.counts.fromRing += copied;
    if (copied < length) {
      const got = this.direct(target.subarray(copied, length), position + copied);
      this.counts.direct += got;
      copied += got;
      // A sequential reader the ring did not serve: read ahead of it from where it stopped.
      if (sequential) this.restart(position + copied);
    }
    this.lastEnd = position + copied;
    return copied;
  }

  /** Copies what the current generation holds at `position`, once its slot is filled; 0 where it holds nothing. */
  private fromRing(target: Uint8Array, position: number): number {
    const generation = Atomics.load(this.ints, GEN);
    if (generation === 0) return 0;
    const start = this.floats[START]!;
    if (position < start) return 0;
    // Slots of this generation the reader has gone past are the helper's to fill again.
    for (let slot = 0; slot < SLOTS; slot += 1) {
      if (Atomics.load(this.ints, SLOT_GEN + slot) === generation && Atomics.load(this.ints, STATE + slot) === READY && this.floats[SLOT_START + 2 * slot]! + this.floats[SLOT_LENGTH + 2 * slot]! <= position) this.release(slot);
    }
    const chunk = Math.floor((position - start) / this.ring.slotBytes);
    const slot = chunk % SLOTS;
    const chunkStart = start + chunk * this.ring.slotBytes;
    for (let waited = 0; ; waited += 1) {
      if (Atomics.load(this.ints, GEN) !== generation) return 0;
      const state = Atomics.load(this.ints, STATE + slot);
      const ours = Atomics.load(this.ints, SLOT_GEN + slot) === generation;
      const holds = this.floats[SLOT_START + 2 * slot]!;
      if (ours && holds === chunkStart && state === READY) break;
      // Read already and given back (the reader went back to it), or a later chunk is in its place.
      if (ours && state !== FILLING && holds >= chunkStart) return 0;
      if (waited === FILLING_WAITS) {
        this.gaveUp = true;
        return 0;
      }
      Atomics.wait(this.ints, STATE + slot, state, FILLING_WAIT_MS);
    }
    const end = chunkStart + this.floats[SLOT_LENGTH + 2 * slot]!;
    if (position >= end) return 0;
    const count = Math.min(target.byteLength, end - position);
    const from = slot * this.ring.slotBytes + (position - chunkStart);
    target.set(this.bytes.subarray(from, from + count));
    if (position + count >= end) this.release(slot);
    return count;
  }

  private release(slot: number): void {
    Atomics.store(this.ints, STATE + slot, FREE);
    Atomics.notify(this.ints, STATE + slot);
  }

  /** A new generation from `position`: the slots of the last one are dropped. */
  private restart(position: number): void {
    if (position >= this.ring.size) return;
    // Already reading ahead from there (a scan that read the file's start twice: a sniff, then the scan).
    if (Atomics.load(this.ints, GEN) !== 0 && this.floats[START] === position) return;
    this.floats[START] = position;
    for (let slot = 0; slot < SLOTS; slot += 1) if (Atomics.load(this.ints, STATE + slot) === READY) this.release(slot);
    Atomics.add(this.ints, GEN, 1);
    Atomics.notify(this.ints, GEN);
  }
}
