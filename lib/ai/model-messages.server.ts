/**
 * Turns the stored UI messages into the model's messages. Blob references in tool outputs are
 * resolved to base64 first. The history is rebuilt from storage at every request, in the format of
 * the model picked for it, so a conversation can switch provider between turns: Responses and
 * Anthropic carry images inside tool results, Gemini inside its functionResponse (the SDK's
 * converters do it); on the Chat Completions path images cannot travel inside tool results (the
 * SDK would turn them into JSON text), so they move into a user message right after them.
 */
import 'server-only';
import { isCodePartType } from '@/lib/targets/registry';
import { convertToModelMessages, type ModelMessage, type UIMessage } from 'ai';
import { BLOB_REF_PATTERN, type RunResult } from '@/lib/runtime/protocol';
import { readRunPart, runResultOf } from '@/lib/targets/run-part';
import { failedRun } from '@/lib/runtime/failed-run';
import { IMAGE_MIME_TYPES } from '@/lib/runtime/mime-types';
import { attachmentsOf, attachmentsToText } from '@/lib/messages/attachment';
import { createTools } from './python-tool.server';
import { runToModel, type ResolveBlob } from './run-to-model.server';
import { attachmentsToSchemaText, knownWords, type KnownWords } from './model-sees.server';
import type { ModelSees } from '@/lib/messages/model-input-schema';

import type { ModelApi } from './provider-clients.server';

export type { ModelApi };
/** modelSees: what the model may see of outputs and files (lib/ai/model-sees.server.ts); `outputs` when absent. */
type Options = { api: ModelApi; includeImages: boolean; resolveBlob: ResolveBlob; codeMode?: 'tools' | 'blocks'; modelSees?: ModelSees };

/** A call the user stopped before its run answered: no state to speak of. */
const CANCELLED: RunResult = failedRun({ kind: 'interrupted', state: 'none' }, 0);

async function resolveRun(result: RunResult, resolveBlob: ResolveBlob): Promise<RunResult> {
  const outputs = await Promise.all(
    result.outputs.map(async (output) => {
      if (output.output_type !== 'display_data' && output.output_type !== 'execute_result') return output;
      const data = { ...output.data };
      for (const key of IMAGE_MIME_TYPES) {
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
async function prepare(messages: UIMessage[], resolveBlob: ResolveBlob, modelSees: ModelSees): Promise<UIMessage[]> {
  return Promise.all(
    messages.map(async (message) => withAttachmentText(modelSees, {
      ...message,
      parts: await Promise.all(
        message.parts.map(async (part) => {
          if (!isCodePartType(part.type)) return part;
          const run = part as Extract<UIMessage['parts'][number], { toolCallId: string }> & { state: string; input?: unknown; output?: unknown };
          if (run.state === 'output-available') {
            // Under `schema` no image is sent: its blob is not even read (the reference says a figure was made).
            const result = runResultOf({ state: run.state, output: run.output });
            return (result ? { ...run, output: modelSees === 'schema' ? result : await resolveRun(result, resolveBlob) } : part) as typeof part;
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
function withAttachmentText(modelSees: ModelSees, message: UIMessage): UIMessage {
  const files = message.role === 'user' ? attachmentsOf(message.metadata) : [];
  if (files.length === 0) return message;
  return { ...message, parts: [...message.parts, { type: 'text', text: modelSees === 'schema' ? attachmentsToSchemaText(files) : attachmentsToText(files) }] };
}

/** What the model knows of a conversation: the code of its runs and the files the person dropped (lib/ai/model-sees.server.ts). */
function conversationWords(messages: UIMessage[]): KnownWords {
  const code = messages.flatMap((message) => message.parts.flatMap((part) => readRunPart(part)?.code ?? []));
  const files = messages.flatMap((message) => (message.role === 'user' ? attachmentsOf(message.metadata) : []));
  return knownWords({ code, files });
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

/**
 * Blocks mode: the model called no tools, it wrote fenced blocks. Its answers go back to it as it
 * wrote them (each cell as a fenced block in its text), and each step's outputs as the next user
 * message, in the words of the model view ("Output of block 1 (python): …", images attached).
 */
async function asBlocks(messages: UIMessage[], includeImages: boolean, modelSees: ModelSees, known: KnownWords): Promise<UIMessage[]> {
  const out: UIMessage[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant') {
      out.push(message);
      continue;
    }
    let segment: UIMessage['parts'] = [];
    let outputs: UIMessage['parts'] = [];
    let block = 0;
    const flush = () => {
      if (segment.length > 0) out.push({ ...message, id: `${message.id}-${out.length}`, parts: segment });
      if (outputs.length > 0) out.push({ id: `${message.id}-out-${out.length}`, role: 'user', parts: outputs });
      segment = [];
      outputs = [];
    };
    for (const part of message.parts) {
      const run = readRunPart(part);
      if (part.type === 'step-start' && outputs.length > 0) flush();
      if (!run) {
        if (part.type === 'text') segment.push(part);
        continue;
      }
      const target = run.target;
      block += 1;
      segment.push({ type: 'text', text: `\n\`\`\`${target.fence}\n${run.code ?? ''}\n\`\`\`\n` });
      const result = runResultOf(run.part);
      if (!result) continue;
      const view = await runToModel(result, { includeImages, modelSees, known });
      outputs.push({ type: 'text', text: `Output of block ${block} (${target.fence}):\n${view.text}` });
      for (const image of view.images) outputs.push({ type: 'file', mediaType: image.mediaType, url: `data:${image.mediaType};base64,${image.data}` });
    }
    flush();
  }
  return out;
}

export async function toModelMessages(messages: UIMessage[], options: Options): Promise<ModelMessage[]> {
  const modelSees = options.modelSees ?? 'outputs';
  const prepared = await prepare(messages, options.resolveBlob, modelSees);
  const known = modelSees === 'schema' ? conversationWords(messages) : new Set<string>();
  if (options.codeMode === 'blocks') return convertToModelMessages(await asBlocks(prepared, options.includeImages, modelSees, known));
  const converted = await convertToModelMessages(prepared, { tools: createTools({ includeImages: options.includeImages, modelSees, known }) });
  return options.api === 'chat' ? moveImagesOutOfToolResults(converted) : converted;
}
