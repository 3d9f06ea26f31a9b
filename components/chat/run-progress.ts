/**
 * Saves what a run has done so far while it goes on (PUT …/runs/<id>/progress): its outputs and
 * how long it has run, so a run its page never finishes (a reload, a closed tab, a crash) is stored
 * with them (lib/chat/abandoned-runs.server.ts). Nothing is sent for a run that ends within its first
 * second; then a save every SAVE_EVERY_MS (the outputs only when they changed), and a last one as
 * the page goes away. Saves are best effort: a failed one costs only what a crash then would lose.
 */
import type { Output } from '@/lib/runtime/protocol';

/** How often a running run's progress is saved. */
export const SAVE_EVERY_MS = 2_000;
/** Characters of JSON kept of a run's outputs (the server refuses more than its 1 MB). */
export const PROGRESS_MAX_CHARS = 900_000;
/** A page going away may send this much (keepalive requests share 64 KB); past it, the duration only. */
const LAST_SAVE_MAX_CHARS = 60_000;

type Send = (url: string, body: string, keepalive: boolean) => void;

const sendProgress: Send = (url, body, keepalive) => {
  void fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body, keepalive }).catch(() => undefined);
};

export class RunProgressSaver {
  private startedAt: number | null = null;
  private runningSince = 0;
  private latest: readonly Output[] = [];
  private changed = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private done = false;
  private readonly onPageHide = () => this.save(true);

  private readonly send: Send;
  private readonly clock: () => number;
  /** Where `pagehide` is heard: the window. */
  private readonly page: EventTarget;

  constructor(
    private readonly url: string,
    options: { send?: Send; clock?: () => number; page?: EventTarget } = {},
  ) {
    this.send = options.send ?? sendProgress;
    this.clock = options.clock ?? (() => performance.now());
    this.page = options.page ?? globalThis;
  }

  /** The run started running at `startedAt` (the page's wall clock, ms since the epoch). */
  running(startedAt: number): void {
    if (this.done || this.startedAt !== null) return;
    this.startedAt = startedAt;
    this.runningSince = this.clock();
    this.timer = setTimeout(() => this.tick(), SAVE_EVERY_MS / 2);
    this.page.addEventListener('pagehide', this.onPageHide);
  }

  /** The run's outputs so far (the kernel's list, read when saved). */
  outputs(outputs: readonly Output[]): void {
    this.latest = outputs;
    this.changed = true;
  }

  /** The run ended here: its result is stored with the answer, nothing more to save. */
  finish(): void {
    this.done = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.page.removeEventListener('pagehide', this.onPageHide);
  }

  private tick(): void {
    this.save(false);
    if (!this.done) this.timer = setTimeout(() => this.tick(), SAVE_EVERY_MS);
  }

  private save(leaving: boolean): void {
    if (this.done || this.startedAt === null) return;
    const durationMs = Math.max(0, this.clock() - this.runningSince);
    const body: { startedAt: number; durationMs: number; outputs?: Output[] } = { startedAt: Math.round(this.startedAt), durationMs };
    if (this.changed) {
      const outputs = boundOutputs(this.latest, PROGRESS_MAX_CHARS);
      if (!leaving || JSON.stringify(outputs).length <= LAST_SAVE_MAX_CHARS) {
        body.outputs = outputs;
        this.changed = false;
      }
    }
    this.send(this.url, JSON.stringify(body), leaving);
  }
}

/**
 * The outputs, in order, within `maxChars` of JSON: printed text past the room left is cut (its
 * head kept), and an output that does not fit otherwise (a large image) and all after it are left out.
 */
export function boundOutputs(outputs: readonly Output[], maxChars: number): Output[] {
  const kept: Output[] = [];
  let room = maxChars;
  for (const output of outputs) {
    const size = JSON.stringify(output).length + 1;
    if (size <= room) {
      kept.push(output);
      room -= size;
      continue;
    }
    if (output.output_type === 'stream' && room > 200) {
      // JSON escapes can double a character: the cut text is measured again.
      let text = output.text.slice(0, Math.floor((room - 100) / 2));
      while (text.length > 0 && JSON.stringify({ ...output, text }).length + 1 > room) text = text.slice(0, Math.floor(text.length / 2));
      if (text.length > 0) kept.push({ ...output, text });
    }
    break;
  }
  return kept;
}
