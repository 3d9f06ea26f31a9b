'use client';

import { z } from 'zod';
import { readJsonAs } from '@/lib/http/error-body';
import type { Kernel } from '@/lib/runtime/kernel';
import type { RunResult } from '@/lib/runtime/protocol';

/**
 * Files a run wrote under /output/ are read from the interpreter and stored on the server, so
 * their download chips survive a reload and appear on a shared page. A file that cannot be
 * stored keeps its chip without a link and says why.
 */
export async function storeOutputFiles(result: RunResult, kernel: Kernel, conversationId: string): Promise<RunResult> {
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
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const body = await readJsonAs(response, z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) }));
        if (!body) throw new Error('the server’s answer was not understood');
        return { ...output, ref: `blob:${body.sha256}` };
      } catch (error) {
        // The file stays downloadable from this page; it is not stored with the conversation.
        console.warn(`Output file ${output.name} was not stored:`, error);
        return output;
      }
    }),
  );
  return { ...result, outputs };
}
