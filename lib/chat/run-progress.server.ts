/**
 * A run's progress, saved by the page while the run goes on (components/chat/run-progress.ts):
 * when its page is reloaded, closed or crashes, the run is stored with what it had printed and
 * displayed and how long it had run (lib/chat/abandoned-runs.server.ts), not as empty and "0 ms".
 */
import 'server-only';
import { z } from 'zod';
import { OUTPUT_CAPS } from '@/lib/runtime/limits';
import { outputSchema, type Output } from '@/lib/runtime/protocol';
import type { RunProgressRow } from '@/lib/db/queries/run-progress.server';

/** Bytes of one progress body: what a page keeps of a run's outputs for a cut-off run (components/chat/run-progress.ts). */
export const RUN_PROGRESS_MAX_BYTES = 1_000_000;
/** The longest a run is believed to have run (a day): a duration past it is a page's mistake. */
const LONGEST_RUN_MS = 24 * 60 * 60 * 1000;

export const runProgressSchema = z.object({
  /** When the run started, in the page's clock (ms since the epoch). */
  startedAt: z.number().int().nonnegative(),
  /** How long it had run when this was sent. */
  durationMs: z.number().nonnegative().max(LONGEST_RUN_MS),
  /** Its outputs so far; absent when they have not changed since the last save. */
  outputs: z.array(outputSchema).max(OUTPUT_CAPS.outputsPerRun + 1).optional(),
});
export type RunProgress = z.infer<typeof runProgressSchema>;

const storedOutputsSchema = z.array(outputSchema);

/** The outputs and duration a stored progress row gives a cut-off run (outputs that no longer validate are left out). */
export function progressResult(row: RunProgressRow | undefined): { outputs: Output[]; durationMs: number } {
  if (!row) return { outputs: [], durationMs: 0 };
  const outputs = storedOutputsSchema.safeParse(row.outputs);
  return { outputs: outputs.success ? outputs.data : [], durationMs: Math.max(0, row.durationMs) };
}
