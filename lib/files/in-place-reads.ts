/**
 * Runs that read a dropped file in place (lib/files/device-mount.ts), on this page: while one is in
 * progress every keep on this device waits between chunks (lib/files/keep-on-device.client.ts), so
 * the run's reads of the dropped File do not share the disk and the cores with the copy and the
 * hash; the keep goes on when the last such run ends (docs/DECISIONS.md, 2026-12-07).
 * Held by the engines' runners around a run whose interpreter has a dropped file
 * (lib/targets/python/kernel.client.ts, lib/targets/r/runner.client.ts).
 */

type Listener = (reading: boolean) => void;

let reading = 0;
const listeners = new Set<Listener>();

function tell(): void {
  const now = reading > 0;
  for (const listener of [...listeners]) listener(now);
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
