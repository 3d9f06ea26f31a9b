'use client';

/**
 * One tool call of the model, run in this page: through the run pipeline (lib/targets/pipeline.client.ts),
 * its phase and outputs live in the run store, its progress saved for a page that goes away, the
 * message list held as drawn while it starts (run-hold.ts).
 */
import type { UIMessage } from 'ai';
import { runToolCall, type PipelineOptions } from '@/lib/targets/pipeline.client';
import { readRunPart } from '@/lib/targets/run-part';
import { RunProgressSaver } from './run-progress';
import type { RunHold } from './run-hold';
import type { RunStore } from './run-store';
import { saveCellRun } from './use-cell-runs';

type ToolCall = { toolCallId: string; toolName: string; input: unknown };

type ToolCallDeps = {
  conversationId: string;
  runs: RunStore;
  runHold: RunHold<UIMessage[]>;
  /** The latest messages (the list drawn while the run starts). */
  messages: () => UIMessage[];
  signal: AbortSignal;
  pipeline: PipelineOptions;
  /** Whether the run must be stored by the page as it ended (the person stopped the turn). */
  storeNow: () => boolean;
};

export type ToolCallRan = Awaited<ReturnType<typeof runToolCall>>;

export async function runChatToolCall(toolCall: ToolCall, { conversationId, runs, runHold, messages, signal, pipeline, storeNow }: ToolCallDeps): Promise<ToolCallRan> {
  const id = toolCall.toolCallId;
  // User Timing mark: where bench/ measures the run round trip from (code complete).
  performance.mark('runpad:code-complete', { detail: id });
  // The list stays as drawn while the run starts: a quick run's cell is drawn once, finished.
  runHold.hold(id, messages());
  // A run cut off with this page is stored with what it had done (lib/chat/abandoned-runs.server.ts).
  const progress = new RunProgressSaver(`/api/conversations/${conversationId}/runs/${encodeURIComponent(id)}/progress`);
  try {
    let ran = await runToolCall(
      toolCall.toolName,
      toolCall.input,
      {
        runId: id,
        signal,
        onPhase: (phase) => {
          runs.update(id, (run) => ({ ...run, phase }));
          if (phase.kind === 'running') progress.running(phase.startedAt);
        },
        onOutputs: (outputs) => {
          runs.setOutputs(id, outputs);
          progress.outputs(outputs);
        },
      },
      pipeline,
    );
    const code = ran && storeNow() ? readRunPart({ type: `tool-${ran.target.toolName}`, toolCallId: id, state: 'input-available', input: toolCall.input })?.code : null;
    // The person stopped the turn: no next request carries this run, so it is stored now, as
    // it ended ("interrupted … Variables were kept", every line it printed), before the cell
    // shows that end, so what the cell shows is what a reload shows.
    if (ran && code != null) ran = { ...ran, result: await saveCellRun(conversationId, id, code, ran.result) };
    const result = ran?.result;
    if (result) runs.update(id, (run) => ({ ...run, phase: { kind: 'done' }, result }));
    return ran;
  } finally {
    progress.finish();
    runHold.release(id);
  }
}
