import 'client-only';
import { startPhaseSchema, type StartPhase } from './worker-api.client';

/**
 * Relays the worker's start-up phases until its init call settles, then drops them. The phases
 * come over a comlink proxy, i.e. their own MessageChannel, so nothing orders them against init's
 * reply on the worker port: a late "installing" could otherwise turn a ready kernel back into a
 * starting one for good (seen in ~1 of 20 page loads).
 */
export function startProgress(onPhase: (phase: StartPhase) => void) {
  let settled = false;
  return {
    report(phase: unknown): void {
      const parsed = startPhaseSchema.safeParse(phase);
      if (!settled && parsed.success) onPhase(parsed.data);
    },
    settle(): void {
      settled = true;
    },
  };
}
