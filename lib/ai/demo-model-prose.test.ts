import { streamText, type ModelMessage } from 'ai';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import Markdown from '@/components/chat/markdown-streamdown';
import { createDemoModel, inlineCode, summarize } from './demo-model.server';
import { tools } from './python-tool.server';

/**
 * The demo model's prose quotes code and program output; what the user sees is that prose
 * rendered as markdown. Whatever the quoted text holds (`**`, `_`, `*`, backticks), it must be
 * shown as written: "2**100 / 7" was shown as "2100 / 7", the `**` taken for bold.
 */
function shown(markdown: string): string {
  const html = renderToStaticMarkup(createElement(Markdown, { text: markdown }));
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

async function answerAfterRun(request: string, code: string, result: string): Promise<string> {
  const messages: ModelMessage[] = [
    { role: 'user', content: request },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'python', input: { code } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'python', output: { type: 'content', value: [{ type: 'text', text: result }] } }] },
  ];
  const streamed = streamText({ model: createDemoModel(), messages, tools });
  let text = '';
  for await (const part of streamed.stream) if (part.type === 'text-delta') text += part.text;
  return text;
}

const TRICKY = ['2**100 / 7 = 1.8109efe+29', 'a_b_c = __init__', '*args and **kwargs', 'uses `backticks` and ``two``', 'ends with `', '3 * 4 * 5 = 60'];

describe('the demo model quotes code and output as written', () => {
  it('shows 2**100 / 7 with its ** after running it (the reported bug)', async () => {
    const text = await answerAfterRun('what is 2**100 / 7', 'result = 2**100 / 7\nprint(f"2**100 / 7 = {result}")\n', 'status: ok (2 ms)\nstdout:\n2**100 / 7 = 1.8109294288974705e+29\n');
    expect(shown(text)).toContain('So: 2**100 / 7 = 1.8109294288974705e+29.');
  });

  it.each(TRICKY)('keeps %j intact in the conclusion and the printed block', (line) => {
    const text = summarize(`status: ok (1 ms)\nstdout:\n${line}\n`);
    const visible = shown(text);
    expect(visible).toContain(`So: ${line}.`);
    expect(visible.split(line).length - 1).toBe(2); // in the block, and in the conclusion
  });

  it.each(TRICKY)('keeps %j intact in an error it quotes', (message) => {
    expect(shown(summarize(`status: error (1 ms)\nerror: ValueError: ${message}\n`))).toContain(`ValueError: ${message}`);
    expect(shown(summarize(`status: error (1 ms)\nerror: PackageLoadError: ${message}\n`))).toContain(`PackageLoadError: ${message}`);
  });

  it('keeps a NameError about __init__ intact while fixing the code', async () => {
    const broken = 'values = [1, 2]\nmean = sum(values) / len(value)\nprint(mean)\n';
    const text = await answerAfterRun('Show me how you fix an error', broken, "status: error (2 ms)\nerror: NameError: name 'value' is not defined\n");
    expect(shown(text)).toContain("The run failed with NameError: name 'value' is not defined.");
  });

  it('does not let output close its block early', () => {
    const output = 'before\n```\nafter **not bold**';
    const visible = shown(summarize(`status: ok (1 ms)\nstdout:\n${output}\n`));
    expect(visible).toContain('after **not bold**');
  });

  it('inlineCode picks a fence longer than any backtick run inside', () => {
    expect(inlineCode('a ` b')).toBe('``a ` b``');
    expect(inlineCode('`x`')).toBe('`` `x` ``');
    expect(inlineCode('plain')).toBe('`plain`');
  });
});
