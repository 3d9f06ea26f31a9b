'use client';

import type { RunResult } from '@/lib/runtime/protocol';

/**
 * Files a run wrote under /output/ are read from the interpreter and stored on the server, so
 * their download chips survive a reload and appear on a shared page. A file that cannot be
 * stored keeps its chip without a link and says why.
 */
/** What a file is read from: Python's interpreter or R's worker. */
type OutputFileSource = { readFile(path: string): Promise<Uint8Array> };

export async function storeOutputFiles(result: RunResult, kernel: OutputFileSource, conversationId: string): Promise<RunResult> {
  if (!result.outputs.some((o) => o.output_type === 'file')) return result;
  const outputs = await Promise.all(
    result.outputs.map(async (output) => {
      if (output.output_type !== 'file' || output.ref) return output;
      try {
        const bytes = await kernel.readFile(`/output/${output.name}`);
        const response = await fetch(`/api/conversations/${conversationId}/outputs`, {
          method: 'POST',
          headers: { 'content-type': output.mediaType },
          body: new Blob([bytes.slice()], { type: output.mediaType }),
        });
        if (!response.ok) return output;
        const { sha256 } = (await response.json()) as { sha256: string };
        return { ...output, ref: `blob:${sha256}` };
      } catch {
        return output;
      }
    }),
  );
  return { ...result, outputs };
}
