/**
 * renderDot against the real Graphviz wasm, and sanitizeSvg against both real Graphviz output of
 * hostile DOT and hand-made SVG carrying what Graphviz would never write.
 */
import { describe, expect, it } from 'vitest';
import { failureForPerson } from '@/lib/runtime/run-failure';
import { renderDot, svgSizeOf } from './render-dot.client';
import { decodeEntities, sanitizeSvg } from './sanitize-svg.client';

async function rendered(dot: string) {
  const result = await renderDot(dot);
  if (!result.ok) throw new Error(`expected a rendering, got: ${failureForPerson(result.failure)}`);
  return result;
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

describe('renderDot', () => {
  it('draws every label in the width Graphviz laid it out for, whatever font the viewer has', async () => {
    // Node, edge, graph and cluster labels; text XML escapes; a label that is two lines.
    const result = await rendered(
      'digraph {\n label="The whole graph";\n subgraph cluster_a { label="A cluster"; model [shape=box, label="The model writes code"]; }\n amp [label="a -> b & <c>"];\n two [label="first line\\nsecond"];\n model -> amp [label="seen by the model"];\n amp -> two;\n}',
    );
    const texts = [...result.svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)].map((match) => ({ attributes: match[1], content: match[2] }));
    expect(texts.map((text) => text.content)).toEqual(expect.arrayContaining(['The whole graph', 'A cluster', 'The model writes code', 'a &#45;&gt; b &amp; &lt;c&gt;', 'first line', 'second', 'seen by the model']));
    for (const text of texts) {
      const width = Number(/\stextLength="([^"]*)"/.exec(text.attributes)?.[1]);
      // Graphviz's Times metrics: a width that grows with the text, not a constant.
      expect(width / decodeEntities(text.content).length).toBeGreaterThan(3);
      expect(width / decodeEntities(text.content).length).toBeLessThan(9);
      expect(text.attributes).toContain('lengthAdjust="spacingAndGlyphs"');
    }
    // The widths are the layout's: a longer label is wider.
    const widthOf = (content: string) => Number(/\stextLength="([^"]*)"/.exec(texts.find((text) => text.content === content)!.attributes)?.[1]);
    expect(widthOf('The model writes code')).toBeGreaterThan(widthOf('seen by the model'));
    // And the sanitizer keeps them.
    expect(sanitizeSvg(result.svg)).toContain('textLength=');
  });

  it('renders a simple digraph to SVG with its labels and a size in CSS pixels', async () => {
    const result = await rendered('digraph {\n  start [label="Alpha"];\n  start -> Beta;\n}');
    expect(result.svg).toContain('<svg');
    expect(result.svg).toContain('>Alpha</text>');
    expect(result.svg).toContain('>Beta</text>');
    const pt = /<svg width="([\d.]+)pt" height="([\d.]+)pt"/.exec(result.svg);
    expect(pt).not.toBeNull();
    expect(result.width).toBeGreaterThan(0);
    expect(result.height).toBeGreaterThan(0);
    expect(result.width).toBeCloseTo((Number(pt![1]) * 4) / 3, 1);
    expect(result.height).toBeCloseTo((Number(pt![2]) * 4) / 3, 1);
  });

  it('reports a syntax error with the 1-based line it is on and that line', async () => {
    const result = await renderDot('digraph {\n  a -> b;\n  b -> c;\n  c -> -> d;\n  d -> a;\n}');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure).toMatchObject({ kind: 'code', ename: 'DotSyntaxError', line: 4, excerpt: 'c -> -> d;' });
    expect(failureForPerson(result.failure)).toContain("syntax error in line 4 near '->'");
    expect(failureForPerson(result.failure)).toContain('4 | c -> -> d;');
  });

  it('reports an unterminated string with the line Graphviz names', async () => {
    const result = await renderDot('digraph {\n  a [label="open];\n}\n');
    expect(result).toMatchObject({ ok: false });
    if (result.ok) return;
    expect(failureForPerson(result.failure)).toMatch(/missing endquote/);
    expect(result.failure.kind === 'code' && result.failure.line).toBeGreaterThanOrEqual(2);
  });

  it('says so when there is no graph at all', async () => {
    for (const dot of ['', '   \n', '/* only a comment */']) {
      const result = await renderDot(dot);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(failureForPerson(result.failure)).toMatch(/empty|no graph/);
    }
  });

  it('refuses DOT longer than 200,000 characters without rendering it', async () => {
    const dot = `digraph { ${'a -> b; '.repeat(25_001)} }`;
    expect(dot.length).toBeGreaterThan(200_000);
    const result = await renderDot(dot);
    expect(result).toEqual({ ok: false, failure: { kind: 'output-refused', engine: 'Graphviz', what: 'source', limitChars: 200_000, chars: dot.length } });
    if (!result.ok) expect(failureForPerson(result.failure)).toContain('the limit is 200,000');
  });

  it('renders a 500-node graph', async () => {
    const lines = Array.from({ length: 500 }, (_, i) => `  n${i} -> n${(i * 7 + 1) % 500};`);
    const result = await rendered(`digraph {\n${lines.join('\n')}\n}`);
    expect(count(result.svg, /class="node"/g)).toBe(500);
    expect(result.svg).toContain('>n499</text>');
  });

  it('keeps rendering after a failure', async () => {
    expect((await renderDot('digraph { -> }')).ok).toBe(false);
    expect((await rendered('graph { x -- y }')).svg).toContain('>y</text>');
  });
});

describe('sanitizeSvg on Graphviz output of hostile DOT', () => {
  const hostile =
    'digraph { a [URL="https://evil.example/x", href="javascript:alert(1)", image="https://evil.example/i.png", ' +
    'label="<script>alert(1)</script>"]; b [label=<<b>hi</b>>]; a -> b [URL="https://evil.example/e"] }';

  it('renders even though the image cannot be loaded (Graphviz has no files; it warns and draws no image)', async () => {
    const raw = (await rendered(hostile)).svg;
    // What the sanitizer has to deal with: Graphviz writes the links.
    expect(raw).toContain('xlink:href="javascript:alert(1)"');
    expect(raw).toContain('<a xlink:href="https://evil.example/e"');
  });

  it('leaves no link, image, script or evil URL, and keeps the labels and shapes', async () => {
    const raw = (await rendered(hostile)).svg;
    const safe = sanitizeSvg(raw);
    expect(safe).not.toMatch(/href/i);
    expect(safe).not.toMatch(/<a[\s>]/);
    expect(safe).not.toContain('<image');
    expect(safe).not.toContain('evil.example');
    expect(safe).not.toMatch(/<script/i);
    expect(safe).not.toMatch(/<\?xml|<!DOCTYPE|<!--/);
    expect(safe).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="[\d.]+pt" height="[\d.]+pt"/);
    expect(safe).toContain('&lt;script&gt;alert(1)&lt;/script&gt;</text>');
    expect(safe).toMatch(/font-weight="bold" font-size="14.00"[^>]*>hi<\/text>/);
    expect(count(safe, /<ellipse /g)).toBe(count(raw, /<ellipse /g));
    expect(count(safe, /<ellipse /g)).toBe(2);
    expect(count(safe, /<path /g)).toBe(count(raw, /<path /g));
    expect(count(safe, /<polygon /g)).toBe(count(raw, /<polygon /g));
  });

  it('unwraps the links of HTML-like tables and drops the stylesheet', async () => {
    const dot =
      'digraph { stylesheet="https://evil.example/s.css"; ' +
      'b [shape=none, label=<<table href="https://evil.example/t"><tr><td href="javascript:x" target="_top">cell</td></tr></table>>] }';
    const raw = (await rendered(dot)).svg;
    expect(raw).toContain('xml-stylesheet');
    const safe = sanitizeSvg(raw);
    expect(safe).not.toMatch(/href|target|evil\.example|stylesheet/);
    expect(safe).toContain('>cell</text>');
  });

  it('is idempotent: its output is within what it accepts', async () => {
    const safe = sanitizeSvg((await rendered(hostile)).svg);
    expect(sanitizeSvg(safe)).toBe(safe);
  });
});

describe('sanitizeSvg on SVG Graphviz would not write', () => {
  const wrap = (body: string, root = '') =>
    `<?xml version="1.0"?>\n<svg width="10pt" height="10pt" xmlns="http://www.w3.org/2000/svg"${root}>${body}</svg>`;

  it('removes on* attributes in any case', () => {
    const safe = sanitizeSvg(wrap('<g id="x" onclick="alert(1)" ONMOUSEOVER="alert(2)"><title>t</title></g>', ' onload="alert(3)"'));
    expect(safe).toBe('<svg xmlns="http://www.w3.org/2000/svg" width="10pt" height="10pt"><g id="x"><title>t</title></g></svg>\n');
  });

  it('removes foreignObject, script, style, image and animation elements with their content', () => {
    const safe = sanitizeSvg(
      wrap(
        '<g><foreignObject width="9" height="9"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example/"/>kept?</body></foreignObject>' +
          '<script type="text/javascript"><![CDATA[alert(1)]]></script><SCRIPT>alert(2)</SCRIPT><svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(3)</svg:script>' +
          '<style>@import url(https://evil.example/s.css);</style>' +
          '<image xlink:href="https://evil.example/i.png" width="9" height="9"/>' +
          '<text x="1">label<set attributeName="fill" to="red"/><animate attributeName="href" values="javascript:alert(4)"/></text></g>',
      ),
    );
    expect(safe).toBe('<svg xmlns="http://www.w3.org/2000/svg" width="10pt" height="10pt"><g><text x="1">label</text></g></svg>\n');
  });

  it('drops href, xlink:href, target, xml:base and namespace tricks, unwrapping <a>', () => {
    const safe = sanitizeSvg(
      wrap(
        '<g xml:base="https://evil.example/" xmlns="http://www.w3.org/1999/xhtml"><a href="https://evil.example/" target="_blank" xlink:title="tip">' +
          '<textPath xlink:href="#p" href="#p">on a path</textPath></a></g>',
        ' xmlns:xlink="http://www.w3.org/1999/xlink"',
      ),
    );
    expect(safe).toBe('<svg xmlns="http://www.w3.org/2000/svg" width="10pt" height="10pt"><g><textPath>on a path</textPath></g></svg>\n');
  });

  it('keeps url(#id) but drops attributes with url() pointing elsewhere, however it is written', () => {
    const safe = sanitizeSvg(
      wrap(
        '<polygon fill="url(#grad)" stroke="url( \'#g2\' )" points="0,0"/>' +
          '<polygon fill="url(https://evil.example/x#a)" filter="URL(&quot;//evil.example/f&quot;)" mask="url&#40;data:x)" points="1,1"/>' +
          '<ellipse fill="u\\72 l(https://evil.example/)" cx="1"/>' +
          '<stop style="stop-color:#fff;stop-opacity:1."/><stop style="stop-color:red;background:image-set(\'x.png\' 1x)"/>',
      ),
    );
    expect(safe).toContain('<polygon fill="url(#grad)" stroke="url( \'#g2\' )" points="0,0"/>');
    expect(safe).toContain('<polygon points="1,1"/>');
    expect(safe).toContain('<ellipse cx="1"/>');
    expect(safe).toContain('<stop style="stop-color:#fff;stop-opacity:1."/><stop/>');
    expect(safe).not.toContain('evil');
  });

  it('drops a DOCTYPE with an internal subset and leaves its entities as plain text', () => {
    const svg =
      '<?xml version="1.0"?>\n<!DOCTYPE svg [\n  <!ENTITY x "<script>alert(1)</script>">\n  <!ENTITY y SYSTEM "https://evil.example/y">\n]>\n' +
      '<!ENTITY z "stray">\n<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><text id="&x;">&x;&y;&amp;&#65;&#x1F600;&#0;</text></svg>\n<!-- trailing -->';
    const safe = sanitizeSvg(svg);
    expect(safe).toBe('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><text id="&amp;x;">&amp;x;&amp;y;&amp;A\u{1F600}\uFFFD</text></svg>\n');
  });

  it('refuses what is not well-formed SVG', () => {
    const broken = [
      '<svg xmlns="http://www.w3.org/2000/svg"><g></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><g>',
      '<svg xmlns="http://www.w3.org/2000/svg"><g id=x></g></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><g id="a"id="b"></g></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><g id="a" id="b"></g></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><!-- unterminated </svg>',
      '<svg xmlns="http://www.w3.org/2000/svg">< g/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"/><svg xmlns="http://www.w3.org/2000/svg"/>',
      '<html><svg xmlns="http://www.w3.org/2000/svg"/></html>',
      'text<svg xmlns="http://www.w3.org/2000/svg"/>',
      '<?xml version="1.0"?>',
    ];
    for (const svg of broken) expect(() => sanitizeSvg(svg), svg).toThrow(/cannot be made safe/);
  });
});

describe('svgSizeOf', () => {
  it('converts the root width and height to CSS pixels', () => {
    expect(svgSizeOf('<svg width="62pt" height="116pt" viewBox="0 0 62 116">')).toEqual({ width: 82.67, height: 154.67 });
    expect(svgSizeOf('<svg width="100px" height="1in">')).toEqual({ width: 100, height: 96 });
    expect(svgSizeOf('<svg width="100%" height="10pt">')).toBeNull();
    expect(svgSizeOf('<svg height="10pt">')).toBeNull();
  });
});
