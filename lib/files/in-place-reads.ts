/**
 * Runs that read a dropped file in place (lib/files/device-mount.ts), on this page: while one is in
 * progress every keep on this device waits between chunks (lib/files/keep-on-device.client.ts), so
 * the run's reads of the dropped File do not share the disk and the cores with the copy and the
 * hash; the keep goes on when the last such run ends (docs/DECISIONS.md, 2026-12-07).
 * Held by the run pipeline around every run whose files include one just dropped, whatever its
 * target (lib/targets/pipeline.client.ts): the one place that decides it.
 */
import type { DataFile } from './data-file';

type Listener = (reading: boolean) => void;

let reading = 0;
const listeners = new Set<Listener>();

function tell(): void {
  const now = reading > 0;
  for (const listener of [...listeners]) listener(now);
}

/** Whether a run over `files` may read a file in place: one of them was just dropped and is not kept yet. */
export function mayReadInPlace(files: readonly DataFile[]): boolean {
  return files.some((file) => file.location === 'dropped');
}

/** Marks a run reading a dropped file in place as begun; the function returned ends it (once, however often called). */
export function holdForInPlaceRead(): () => void {
  reading += 1;
  if (reading === 1) tell();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    reading -= 1;
    if (reading === 0) tell();
  };
}

/** Whether a run reads a dropped file in place now. */
export function readingInPlace(): boolean {
  return reading > 0;
}

/** Calls `listener` now with whether a run reads in place, then on every change; the function returned stops it. */
export function onInPlaceReads(listener: Listener): () => void {
  listeners.add(listener);
  listener(reading > 0);
  return () => void listeners.delete(listener);
}
