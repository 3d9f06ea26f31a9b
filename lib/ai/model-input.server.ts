/**
 * "What the model saw": the model-facing content the server built for one request to the model
 * provider (the system prompt and every message as converted), recorded before the request is
 * made. Text is kept as sent; an image by its sha256 and byte count (the bytes are the run's blob,
 * /api/blobs/<sha256>). Pure: building, measuring and reading back (zod); storing is in
 * lib/db/queries/model-inputs.server.ts.
 */
import 'server-only';
import { createHash } from 'node:crypto';
import type { ModelMessage } from 'ai';
import type { ModelInputContent, ModelInputItem, ModelInputPurpose } from '@/lib/messages/model-input-schema';


function imageItem(label: string, mediaType: string, data: unknown): ModelInputItem | null {
  let bytes: Buffer | null = null;
  if (typeof data === 'string') {
    const base64 = data.startsWith('data:') ? data.slice(data.indexOf(',') + 1) : data;
    bytes = Buffer.from(base64, 'base64');
  } else if (data instanceof Uint8Array) bytes = Buffer.from(data);
  else if (data instanceof URL && data.protocol === 'data:') return imageItem(label, mediaType, data.href);
  else if (typeof data === 'object' && data !== null && 'type' in data && (data as { type: unknown }).type === 'data') return imageItem(label, mediaType, (data as unknown as { data: unknown }).data);
  if (!bytes) return { kind: 'text', label, text: `[${mediaType} by reference]` };
  return { kind: 'image', label, mediaType, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}

function toolOutputItems(name: string, output: unknown): ModelInputItem[] {
  const label = `result of ${name}`;
  const parsed = output as { type?: string; value?: unknown };
  switch (parsed.type) {
    case 'text':
    case 'error-text':
      return [{ kind: 'text', label, text: String(parsed.value) }];
    case 'content': {
      const items = Array.isArray(parsed.value) ? (parsed.value as Array<{ type: string; text?: string; mediaType?: string; data?: unknown }>) : [];
      return items.flatMap((item): ModelInputItem[] => {
        if (item.type === 'text') return [{ kind: 'text', label, text: item.text ?? '' }];
        const image = imageItem(label, item.mediaType ?? 'application/octet-stream', item.data);
        return image ? [image] : [];
      });
    }
    default:
      return [{ kind: 'text', label, text: JSON.stringify(parsed.value ?? null) }];
  }
}

function itemsOf(message: ModelMessage): ModelInputItem[] {
  if (typeof message.content === 'string') return [{ kind: 'text', label: 'text', text: message.content }];
  const items: ModelInputItem[] = [];
  for (const part of message.content as Array<Record<string, unknown> & { type: string }>) {
    if (part.type === 'text' || part.type === 'reasoning') items.push({ kind: 'text', label: part.type, text: String(part.text ?? '') });
    else if (part.type === 'tool-call') items.push({ kind: 'text', label: `call of ${String(part.toolName)}`, text: JSON.stringify(part.input ?? null) });
    else if (part.type === 'tool-result') items.push(...toolOutputItems(String(part.toolName), part.output));
    else if (part.type === 'image') {
      const image = imageItem('image', String(part.mediaType ?? 'image/png'), part.image);
      if (image) items.push(image);
    } else if (part.type === 'file') {
      const image = imageItem('file', String(part.mediaType ?? 'application/octet-stream'), part.data);
      if (image) items.push(image);
    }
  }
  return items;
}

/** The record of one request: its content, and the bytes of its text (UTF-8) and of its images. */
export function buildModelInput(system: string, messages: ModelMessage[], purpose: ModelInputPurpose = 'answer'): { content: ModelInputContent; textBytes: number; imageBytes: number } {
  const content: ModelInputContent = { system, messages: messages.map((message) => ({ role: message.role, items: itemsOf(message) })), purpose };
  let textBytes = Buffer.byteLength(system, 'utf8');
  let imageBytes = 0;
  for (const message of content.messages) {
    for (const item of message.items) {
      if (item.kind === 'text') textBytes += Buffer.byteLength(item.text, 'utf8');
      else imageBytes += item.bytes;
    }
  }
  return { content, textBytes, imageBytes };
}
