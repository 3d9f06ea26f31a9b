/**
 * The page's own enforcement of every output cap (ARCHITECTURE.md: "the page is the boundary").
 * The Python package caps what it emits too, but code in the worker can post outputs itself,
 * so the kernel admits each arriving output through this budget: consecutive prints to one
 * stream merge into one output (a line updated in place with `\r` keeps its last state), and past
 * a cap an output is cut or dropped, with one run failure (`output-capped`,
 * lib/runtime/run-failure.ts) naming the caps. What leaves the budget is what the UI renders and what is stored.
 */
import 'client-only';
import type { OutputCaps } from './limits';
import { VEGALITE_MIME_TYPES, type MimeBundle, type Output } from './protocol';
import { IMAGE_MIME_TYPES } from './mime-types';
import type { OutputCap, RunFailure } from './run-failure';
import { appendStreamText, foldCarriageReturns } from './stream-text';

/** Everything shown as a picture counts against the image cap, a drawn diagram too. */
const IMAGE_TYPES = [...IMAGE_MIME_TYPES, 'image/svg+xml'] as const;
/** Room past the printed-text cap for the Python side's own elision marker and notices. */
const STREAM_SLACK_CHARS = 10_000;

export class OutputBudget {
  private readonly kept: Output[] = [];
  private streamChars = 0;
  private images = 0;
  /** Vega-Lite charts: each is a live view in the page, so they are capped at the images' per-run count. */
  private charts = 0;
  private bytes = 0;
  /** The caps output was cut or dropped at, with their limits, in the order met. */
  private readonly dropped = new Map<OutputCap, number>();

  constructor(private readonly caps: OutputCaps) {}

  /**
   * Admits one output (with its size as received, in bytes of JSON). Returns the list as it now
   * stands when it changed — a new output appended or the last stream extended — else null.
   */
  admit(output: Output, sizeBytes: number): readonly Output[] | null {
    if (this.bytes + sizeBytes > this.caps.runBytes) return this.drop('runBytes');
    if (output.output_type === 'stream') return this.admitStream(output.name, output.text, sizeBytes);
    if (this.kept.length >= this.caps.outputsPerRun) return this.drop('outputsPerRun');
    let admitted: Output | null = output;
    if (output.output_type === 'display_data' || output.output_type === 'execute_result') {
      const data = this.capBundle(output.data);
      admitted = data ? { ...output, data } : null;
    } else if (output.output_type === 'error') {
      admitted = { ...output, evalue: this.capText(output.evalue), traceback: output.traceback.slice(-200).map((line) => this.capText(line)) };
    }
    if (!admitted) return null;
    this.bytes += sizeBytes;
    this.kept.push(admitted);
    return this.kept;
  }

  /** The outputs kept, and what was dropped in one sentence (or null). */
  get outputs(): readonly Output[] {
    return this.kept;
  }

  /** What was cut or dropped, as a run failure (null when nothing was). */
  get failure(): RunFailure | null {
    return this.dropped.size === 0 ? null : { kind: 'output-capped', caps: [...this.dropped].map(([cap, limit]) => ({ cap, limit })) };
  }


  private admitStream(name: 'stdout' | 'stderr', text: string, sizeBytes: number): readonly Output[] | null {
    const room = this.caps.streamChars + STREAM_SLACK_CHARS - this.streamChars;
    if (room <= 0) return this.drop('streamChars');
    const kept = text.length > room ? text.slice(0, room) : text;
    if (kept.length < text.length) this.note('streamChars');
    this.bytes += Math.min(sizeBytes, kept.length * 3 + 64);
    // Kept as a terminal shows it: a line updated in place (`\r`) counts and shows its last state.
    const last = this.kept.at(-1);
    if (last?.output_type === 'stream' && last.name === name) {
      const text = appendStreamText(last.text, kept);
      this.streamChars += text.length - last.text.length;
      this.kept[this.kept.length - 1] = { ...last, text };
      return this.kept;
    }
    if (this.kept.length >= this.caps.outputsPerRun) return this.drop('outputsPerRun');
    const folded = foldCarriageReturns(kept);
    this.streamChars += folded.length;
    this.kept.push({ output_type: 'stream', name, text: folded });
    return this.kept;
  }

  private capBundle(data: MimeBundle): MimeBundle | null {
    const capped: MimeBundle = { ...data };
    const hasImage = IMAGE_TYPES.some((type) => (capped as Record<string, unknown>)[type] !== undefined);
    if (hasImage) {
      const tooLarge = IMAGE_TYPES.some((type) => {
        const value = (capped as Record<string, unknown>)[type];
        return typeof value === 'string' && value.length > (this.caps.imageBytes * 4) / 3 + 4;
      });
      if (this.images >= this.caps.imagesPerRun || tooLarge) {
        for (const type of IMAGE_TYPES) delete (capped as Record<string, unknown>)[type];
        this.note(tooLarge ? 'imageBytes' : 'imagesPerRun');
      } else {
        this.images += 1;
      }
    }
    if (VEGALITE_MIME_TYPES.some((type) => capped[type] !== undefined)) {
      if (this.charts >= this.caps.imagesPerRun) {
        for (const type of VEGALITE_MIME_TYPES) delete capped[type];
        this.note('chartsPerRun');
      } else {
        this.charts += 1;
      }
    }
    if (capped['text/plain'] !== undefined) capped['text/plain'] = this.capText(capped['text/plain']);
    if (capped['text/markdown'] !== undefined) capped['text/markdown'] = this.capText(capped['text/markdown']);
    const table = capped['application/vnd.dataresource+json'];
    if (table) {
      const fields = table.schema.fields.slice(0, this.caps.tableColumns + 1);
      const names = new Set(fields.map((field) => field.name));
      const rows = table.data.slice(0, this.caps.tableRows);
      const cut = fields.length < table.schema.fields.length || rows.length < table.data.length;
      capped['application/vnd.dataresource+json'] = {
        ...table,
        schema: { ...table.schema, fields },
        data: cut ? rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => names.has(key)))) : rows,
        shape: table.shape ?? [table.data.length, table.schema.fields.length],
      };
    }
    return Object.values(capped).some((value) => value !== undefined) ? capped : null;
  }

  private capText(text: string): string {
    if (text.length <= this.caps.textChars) return text;
    this.note('textChars');
    return `${text.slice(0, this.caps.textChars)}…`;
  }

  private drop(cap: OutputCap): null {
    this.note(cap);
    return null;
  }

  private note(cap: OutputCap): void {
    // Charts are capped at the images' count.
    this.dropped.set(cap, cap === 'chartsPerRun' ? this.caps.imagesPerRun : this.caps[cap]);
  }
}
