import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CodeView } from './code-view';

function linesOf(code: string): string[] {
  const html = renderToStaticMarkup(createElement(CodeView, { code, language: 'python' }));
  return [...html.matchAll(/<span[^>]*>(.*?)<\/span>/g)].map((match) => match[1]);
}

describe('a cell’s code', () => {
  it('is one numbered line per line of code, as text, with no empty line for a final newline', () => {
    expect(linesOf('x = 1\n\nprint(x < 2)\n')).toEqual(['x = 1', '', 'print(x &lt; 2)']);
    expect(linesOf('1+1')).toEqual(['1+1']);
    // Code that looks like markdown or HTML stays the code.
    expect(linesOf('**bold** <b>not</b>')).toEqual(['**bold** &lt;b&gt;not&lt;/b&gt;']);
  });
});
