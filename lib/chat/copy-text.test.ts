import { describe, expect, it } from 'vitest';
import { TARGET_LIST } from '@/lib/targets/registry';
import { messagePlainText } from './copy-text.client';

const run = (type: string, code: string) => ({ type, toolCallId: `id-${type}`, state: 'output-available', input: { code }, output: { status: 'ok', outputs: [], durationMs: 1 } });

describe('messagePlainText (Copy on a message)', () => {
  it('keeps the text and every run of every target, each fenced in its language, in order', () => {
    const text = messagePlainText({
      parts: [
        { type: 'step-start' },
        { type: 'text', text: 'Here is the total:' },
        run('tool-python', 'print(1 + 1)'),
        run('tool-sql', 'SELECT region, SUM(amount) FROM sales GROUP BY region'),
        run('tool-graphviz', 'digraph { a -> b }'),
        { type: 'text', text: 'Done.' },
      ],
    });
    expect(text).toBe(
      [
        'Here is the total:',
        '```python\nprint(1 + 1)\n```',
        '```sql\nSELECT region, SUM(amount) FROM sales GROUP BY region\n```',
        '```dot\ndigraph { a -> b }\n```',
        'Done.',
      ].join('\n\n'),
    );
  });

  it('covers each target of the registry', () => {
    for (const target of TARGET_LIST) {
      expect(messagePlainText({ parts: [run(`tool-${target.toolName}`, 'x')] })).toBe(`\`\`\`${target.fence}\nx\n\`\`\``);
    }
  });

  it('fences code that holds backticks with a longer fence, and leaves out calls without code', () => {
    const text = messagePlainText({ parts: [run('tool-python', 'print("```")'), { type: 'tool-python', toolCallId: 'p', state: 'input-streaming' }] });
    expect(text).toBe('````python\nprint("```")\n````');
  });
});
