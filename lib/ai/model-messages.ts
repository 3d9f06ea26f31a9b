/**
 * Turns the stored UI messages into the model's messages. Blob references in tool outputs are
 * resolved to base64 first. On the Chat Completions path, images cannot travel inside tool
 * results (the SDK would turn them into JSON text), so they move into a user message placed
 * right after the tool results.
 */
import { isCodePartType } from '@/lib/targets/registry';
import { convertToModelMessages, type ModelMessage, type UIMessage } from 'ai';
import { BLOB_REF_PATTERN, runResultSchema, type RunResult } from '@/lib/runtime/protocol';
import { attachmentsOf, attachmentsToText } from '@/lib/files/attachment';
import { createTools } from './python-tool';
import type { ResolveBlob } from './run-to-model';

export type ModelApi = 'responses' | 'chat';
type Options = { api: ModelApi; includeImages: boolean; resolveBlob: ResolveBlob };

const CANCELLED: RunResult = {
  status: 'interrupted',
  durationMs: 0,
  outputs: [],
  notice: 'This run was cancelled before it finished (the user stopped it).',
};

async function resolveRun(result: RunResult, resolveBlob: ResolveBlob): Promise<RunResult> {
  const outputs = await Promise.all(
    result.outputs.map(async (output) => {
      if (output.output_type !== 'display_data' && output.output_type !== 'execute_result') return output;
      const data = { ...output.data };
      for (const key of ['image/png', 'image/jpeg'] as const) {
        const value = data[key];
        if (!value || !BLOB_REF_PATTERN.test(value)) continue;
        const blob = await resolveBlob(value.slice('blob:'.length));
        if (blob) data[key] = blob.base64;
        else delete data[key];
      }
      return { ...output, data };
    }),
  );
  return { ...result, outputs };
}

/** Resolves blob references and gives unanswered tool calls (a stopped turn) an output. */
async function prepare(messages: UIMessage[], resolveBlob: ResolveBlob): Promise<UIMessage[]> {
  return Promise.all(
    messages.map(async (message) => withAttachmentText({
      ...message,
      parts: await Promise.all(
        message.parts.map(async (part) => {
          if (!isCodePartType(part.type)) return part;
          const run = part as Extract<UIMessage['parts'][number], { toolCallId: string }> & { state: string; input?: unknown; output?: unknown };
          if (run.state === 'output-available') {
            const parsed = runResultSchema.safeParse(run.output);
            return (parsed.success ? { ...run, output: await resolveRun(parsed.data, resolveBlob) } : part) as typeof part;
          }
          if (run.state === 'input-available' || run.state === 'input-streaming') {
            return { ...run, state: 'output-available' as const, input: run.input ?? { code: '' }, output: CANCELLED } as typeof part;
          }
          return part;
        }),
      ),
    })),
  );
}

/** Files that came with a user message are described to the model in words (name, size, preview). */
function withAttachmentText(message: UIMessage): UIMessage {
  const files = message.role === 'user' ? attachmentsOf(message.metadata) : [];
  if (files.length === 0) return message;
  return { ...message, parts: [...message.parts, { type: 'text', text: attachmentsToText(files) }] };
}

function moveImagesOutOfToolResults(messages: ModelMessage[]): ModelMessage[] {
  const result: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role !== 'tool') {
      result.push(message);
      continue;
    }
    const images: Array<{ type: 'file'; mediaType: string; data: string }> = [];
    const content = message.content.map((part) => {
      if (part.type !== 'tool-result' || part.output.type !== 'content') return part;
      const kept = part.output.value.filter((item) => {
        if (item.type === 'file' && item.mediaType.startsWith('image') && item.data.type === 'data' && typeof item.data.data === 'string') {
          images.push({ type: 'file', mediaType: item.mediaType, data: item.data.data });
          return false;
        }
        return true;
      });
      return { ...part, output: { ...part.output, value: kept } };
    });
    result.push({ ...message, content });
    if (images.length > 0) {
      result.push({ role: 'user', content: [{ type: 'text', text: 'Images produced by the python run above:' }, ...images] });
    }
  }
  return result;
}

export async function toModelMessages(messages: UIMessage[], options: Options): Promise<ModelMessage[]> {
  const prepared = await prepare(messages, options.resolveBlob);
  const converted = await convertToModelMessages(prepared, { tools: createTools({ includeImages: options.includeImages }) });
  return options.api === 'chat' ? moveImagesOutOfToolResults(converted) : converted;
}
