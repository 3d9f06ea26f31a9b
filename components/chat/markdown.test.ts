import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import Markdown from './markdown-streamdown';

/** What the user sees mid-stream: the markdown as rendered while the answer is still arriving. */
function renderStreaming(text: string): string {
  return renderToStaticMarkup(createElement(Markdown, { text, streaming: true }));
}

function visibleText(html: string): string {
  return html.replace(/<[^>]+>/g, '');
}

describe('streaming markdown on incomplete input', () => {
  it('does not show the markers of unfinished emphasis or inline code', () => {
    const bold = renderStreaming('The mean is **3.87');
    expect(bold).toContain('<span class="font-semibold" data-streamdown="strong">3.87</span>');
    expect(visibleText(bold)).not.toContain('**');
    const code = renderStreaming('Use `np.mea');
    expect(code).toContain('np.mea</code>');
    expect(visibleText(code)).not.toContain('`');
  });

  it('renders a fenced block that has not been closed yet as code, not as text', () => {
    const html = renderStreaming('Here is the code:\n\n```python\nimport numpy as np\nx = np.arange(3');
    expect(html).toMatch(/<pre|<code/);
    expect(visibleText(html)).not.toContain('```');
  });

  it('renders a half-written table without leaking pipes into a paragraph', () => {
    const html = renderStreaming('| n | square |\n| --- | --- |\n| 1 | 1 |\n| 2 | 4');
    expect(html).toContain('<table');
    expect(html).toContain('square');
  });

  it('keeps a half-written link or image from pointing anywhere', () => {
    for (const partial of ['See [the docs](https://exa', 'Plot: ![chart](https://evil.example/?q=sec']) {
      const html = renderStreaming(partial);
      expect(html).not.toContain('evil.example/?q=sec"');
      expect(html).not.toMatch(/<img[^>]+src="https:\/\/evil/);
    }
  });

  it('shows an unclosed [ as written once the answer is complete, and never the incomplete-link marker', () => {
    const texts = [
      'The interval [0, 1) is half-open.\n\nNext paragraph.',
      'Range [0, 1)\n\nNext paragraph.',
      'Values [1, 2, 3\n```python\nx = 1\n```',
      'arr[i and «данные» [ü',
      '- item [1\n- item 2',
      'Take [x](https://example.org/a) and [y',
      '| a | b |\n| - | - |\n| [0, 1) | x |\n\nThe end [',
    ];
    for (const text of texts) {
      const done = visibleText(renderToStaticMarkup(createElement(Markdown, { text, streaming: false })));
      expect(done, text).not.toContain('streamdown:');
      expect(done, text).not.toContain('](');
      // Every opening bracket the model wrote outside a link is still there.
      expect(done.split('[').length, text).toBe(text.replace(/\[x\]\(https:\/\/example\.org\/a\)/, 'x').split('[').length);
    }
    for (const text of texts) for (let end = 1; end <= text.length; end += 1) expect(visibleText(renderStreaming(text.slice(0, end)))).not.toContain('streamdown:');
  });

  it('never renders raw HTML from the text', () => {
    const html = renderStreaming('<img src=x onerror=alert(1)> and <script>alert(1)</script> **done**');
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/<img/);
    expect(html).toContain('done</span>');
  });

  it('renders every prefix of a mixed answer without throwing', () => {
    const answer = '# Result\n\n- one\n- **two**\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n```python\nprint(1)\n```\n\nDone: `x`.';
    for (let end = 1; end <= answer.length; end += 1) expect(() => renderStreaming(answer.slice(0, end))).not.toThrow();
  });
});
