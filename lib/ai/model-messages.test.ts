import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { toModelMessages } from './model-messages.server';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function conversation(output: unknown, state = 'output-available'): UIMessage[] {
  return [
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'draw' }] },
    {
      id: 'a1',
      role: 'assistant',
      parts: [{ type: 'tool-python', toolCallId: 'call_1', state, input: { code: 'display(img)' }, output } as UIMessage['parts'][number]],
    },
  ];
}

const result = { status: 'ok', durationMs: 5, outputs: [{ output_type: 'display_data', data: { 'image/png': PNG } }] };
const noBlobs = async () => null;

describe('model messages', () => {
  it('responses path: the image stays inside the tool result as a file part', async () => {
    const messages = await toModelMessages(conversation(result), { api: 'responses', includeImages: true, resolveBlob: noBlobs });
    const tool = messages.find((m) => m.role === 'tool');
    expect(JSON.stringify(tool)).toContain('"type":"file"');
    expect(JSON.stringify(tool)).toContain(PNG);
    expect(messages.at(-1)?.role).toBe('tool');
  });

  it('chat path: the image moves into a user message right after the tool result', async () => {
    const messages = await toModelMessages(conversation(result), { api: 'chat', includeImages: true, resolveBlob: noBlobs });
    const toolIndex = messages.findIndex((m) => m.role === 'tool');
    expect(JSON.stringify(messages[toolIndex])).not.toContain(PNG);
    const next = messages[toolIndex + 1];
    expect(next.role).toBe('user');
    expect(JSON.stringify(next)).toContain(PNG);
  });

  it('resolves blob references before conversion', async () => {
    const sha = 'b'.repeat(64);
    const stored = { ...result, outputs: [{ output_type: 'display_data', data: { 'image/png': `blob:${sha}` } }] };
    const messages = await toModelMessages(conversation(stored), {
      api: 'responses',
      includeImages: true,
      resolveBlob: async () => ({ mediaType: 'image/png', base64: PNG }),
    });
    expect(JSON.stringify(messages)).toContain(PNG);
    expect(JSON.stringify(messages)).not.toContain('blob:');
  });

  it('a tool call stopped before its output still converts, as stopped by the user', async () => {
    const messages = await toModelMessages(conversation(undefined, 'input-available'), { api: 'chat', includeImages: true, resolveBlob: noBlobs });
    expect(JSON.stringify(messages.find((m) => m.role === 'tool'))).toContain('The user stopped this run');
  });
});
