import { describe, expect, it } from 'vitest';
import type { UIMessageChunk } from 'ai';
import { TARGET_LIST } from '@/lib/targets/registry';
import { blockCallId, blocksToToolCalls, splitBlocksInParts } from './blocks-stream.server';

async function run(deltas: string[]): Promise<UIMessageChunk[]> {
  const input = new ReadableStream<UIMessageChunk>({
    start(controller) {
      controller.enqueue({ type: 'text-start', id: 't' });
      for (const delta of deltas) controller.enqueue({ type: 'text-delta', id: 't', delta });
      controller.enqueue({ type: 'text-end', id: 't' });
      controller.close();
    },
  });
  const out: UIMessageChunk[] = [];
  for await (const chunk of input.pipeThrough(blocksToToolCalls(blockCallId('n1')))) out.push(chunk);
  return out;
}

const shownText = (chunks: UIMessageChunk[]) => chunks.map((c) => (c.type === 'text-delta' ? c.delta : c.type === 'tool-input-available' ? `[${c.toolName}:${(c.input as { code: string }).code}]` : '')).join('');

describe('blocks mode: fenced blocks become tool calls as their fence closes', () => {
  const answer = 'First the sum.\n```python\nprint(sum(range(10)))\n```\nThen a query:\n```sql\nSELECT 1;\n```\nDone.';

  it('turns each runnable block into a call, in order, keeping the text around them', async () => {
    const chunks = await run([answer]);
    expect(shownText(chunks)).toBe('First the sum.\n[python:print(sum(range(10)))]\nThen a query:\n[sql:SELECT 1;]\nDone.');
    const calls = chunks.filter((c) => c.type === 'tool-input-available');
    expect(calls.map((c) => (c as { toolName: string }).toolName)).toEqual(['python', 'sql']);
  });

  it('runs a block of every target as that target’s tool, in the order written (the end-to-end test runs Python, SQL and DOT blocks)', async () => {
    const blocks = TARGET_LIST.map((target, index) => `\`\`\`${target.blockTags[0]}\nblock ${index}\n\`\`\`\n`).join('Next:\n');
    const calls = (await run([`All of them:\n${blocks}Done.`])).filter((c) => c.type === 'tool-input-available') as Array<{ toolName: string; input: { code: string } }>;
    expect(calls.map((c) => [c.toolName, c.input.code])).toEqual(TARGET_LIST.map((target, index) => [target.toolName, `block ${index}`]));
  });

  it('gives the same result however the text is cut while streaming, and never shows fenced code as text', async () => {
    const oneByOne = await run([...answer]);
    expect(shownText(oneByOne)).toBe(shownText(await run([answer])));
    expect(shownText(oneByOne)).not.toContain('```');
    // Every text part that starts also ends, and calls sit between parts.
    const starts = oneByOne.filter((c) => c.type === 'text-start').length;
    expect(oneByOne.filter((c) => c.type === 'text-end').length).toBe(starts);
  });

  it('runs a block the moment its closing fence has streamed, before the answer ends', async () => {
    const deltas = ['Go:\n```python\nx = 1\n', '```\n', 'more text that is still coming'];
    const input = new ReadableStream<UIMessageChunk>({
      start(controller) {
        controller.enqueue({ type: 'text-start', id: 't' });
        for (const delta of deltas) controller.enqueue({ type: 'text-delta', id: 't', delta });
      },
    });
    const reader = input.pipeThrough(blocksToToolCalls(blockCallId('n2'))).getReader();
    const seen: UIMessageChunk[] = [];
    while (!seen.some((c) => c.type === 'tool-input-available')) seen.push((await reader.read()).value!);
    expect(seen.at(-1)).toMatchObject({ type: 'tool-input-available', toolName: 'python', input: { code: 'x = 1' } });
    await reader.cancel();
  });

  it('leaves unknown languages and an unclosed block at the end as text', async () => {
    const text = 'A shell example:\n```bash\nls\n```\nAnd an unfinished one:\n```python\nprint(1)';
    const chunks = await run([text]);
    expect(chunks.filter((c) => c.type === 'tool-input-available')).toHaveLength(0);
    expect(shownText(chunks)).toBe(text);
  });

  it('dot blocks go to graphviz', async () => {
    const chunks = await run(['```dot\ndigraph { a -> b }\n```\n']);
    expect(chunks.find((c) => c.type === 'tool-input-available')).toMatchObject({ toolName: 'graphviz', input: { code: 'digraph { a -> b }' } });
  });
});

describe('what is stored matches what the page was sent', () => {
  it('splits a finished answer into the same text and tool parts, with the same ids', async () => {
    const text = 'Sum:\n```python\nprint(1)\n```\nand\n```dot\ndigraph { a }\n```\nend';
    const chunks = await run([text]);
    const ids = chunks.filter((c) => c.type === 'tool-input-available').map((c) => (c as { toolCallId: string }).toolCallId);
    const stored = splitBlocksInParts([{ type: 'step-start' }, { type: 'text', text }], 1, blockCallId('n1'));
    expect(stored.map((p) => p.type)).toEqual(['step-start', 'text', 'tool-python', 'text', 'tool-graphviz', 'text']);
    expect(stored.filter((p) => p.type.startsWith('tool-')).map((p) => p.toolCallId)).toEqual(ids);
  });
});
