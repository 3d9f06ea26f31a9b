/**
 * Makes Graphviz's SVG inert, so that it is safe even when downloaded and opened on its own (the
 * page shows it as <img src=blob:…>, which already runs no script and loads nothing).
 *
 * The input is Graphviz's own output: well-formed XML with a fixed, small vocabulary. So rather
 * than a general HTML sanitizer this is a strict XML tokenizer with allowlists, and it rebuilds
 * the document from what it keeps:
 * - links (`<a>`, from DOT's URL/href/tooltip) are unwrapped: their children stay;
 * - any element not in the allowlist is dropped with its content: <image> (DOT's `image`),
 *   <script>, <style>, <foreignObject>, animation elements (which can rewrite attributes), and
 *   anything else Graphviz does not normally write;
 * - href, xlink:href, target, on* attributes, prefixed attributes, and values that point outside
 *   the document with url(…) are removed;
 * - the prologue (XML declaration, processing instructions such as xml-stylesheet, DOCTYPE with
 *   any internal subset, ENTITY declarations), comments and CDATA are dropped;
 * - text and attribute values are decoded and re-escaped, so no entity reference survives that
 *   the dropped DOCTYPE could have defined.
 * Input that is not well-formed is refused with an error rather than repaired.
 */

import 'client-only';
const SVG_NS = 'http://www.w3.org/2000/svg';

/** What Graphviz's SVG renderer writes, minus <a> and <image>. */
const KEPT_ELEMENTS = new Set([
  'svg',
  'g',
  'title',
  'polygon',
  'polyline',
  'ellipse',
  'path',
  'text',
  'tspan',
  'textPath',
  'defs',
  'linearGradient',
  'radialGradient',
  'stop',
]);
const UNWRAPPED_ELEMENTS = new Set(['a']);
const REMOVED_ATTRIBUTES = new Set(['href', 'target', 'src']);
const PREDEFINED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

type Mode = 'keep' | 'unwrap' | 'drop';
type Open = { name: string; mode: Mode };

export class UnsafeSvgError extends Error {
  constructor(reason: string) {
    super(`Graphviz produced SVG that cannot be made safe: ${reason}`);
    this.name = 'UnsafeSvgError';
  }
}

export function sanitizeSvg(svg: string): string {
  const out: string[] = [];
  const open: Open[] = [];
  let dropping = 0; // how many of the open elements are dropped: while > 0 nothing is written
  let rootSeen = false;
  let rootClosed = false;
  let i = 0;

  while (i < svg.length) {
    const lt = svg.indexOf('<', i);
    const text = svg.slice(i, lt === -1 ? svg.length : lt);
    if (text) {
      if (open.length === 0) {
        if (text.trim()) throw new UnsafeSvgError('text outside the root element');
      } else if (dropping === 0) {
        out.push(escapeText(decodeEntities(text)));
      }
    }
    if (lt === -1) break;

    if (svg.startsWith('<?', lt)) {
      i = endOf(svg, lt, '?>');
    } else if (svg.startsWith('<!--', lt)) {
      i = endOf(svg, lt, '-->');
    } else if (svg.startsWith('<![CDATA[', lt)) {
      i = endOf(svg, lt, ']]>');
    } else if (svg.startsWith('<!', lt)) {
      i = endOfDeclaration(svg, lt);
    } else if (svg.startsWith('</', lt)) {
      const match = /<\/([^\s>]+)\s*>/y;
      match.lastIndex = lt;
      const end = match.exec(svg);
      const top = open.pop();
      if (!end || !top || top.name !== end[1]) throw new UnsafeSvgError(`unexpected end tag at offset ${lt}`);
      if (top.mode === 'drop') dropping -= 1;
      else if (top.mode === 'keep' && dropping === 0) out.push(`</${top.name}>`);
      if (open.length === 0) rootClosed = true;
      i = match.lastIndex;
    } else {
      const tag = parseStartTag(svg, lt);
      const isRoot = open.length === 0;
      if (isRoot && (rootSeen || rootClosed)) throw new UnsafeSvgError('more than one root element');
      if (isRoot && tag.name !== 'svg') throw new UnsafeSvgError(`the root element is <${tag.name}>, not <svg>`);
      rootSeen = true;
      const mode = modeOf(tag.name, isRoot, dropping > 0);
      if (mode === 'keep') out.push(`<${tag.name}${keptAttributes(tag.attributes, isRoot)}${tag.selfClosing ? '/>' : '>'}`);
      if (!tag.selfClosing) {
        open.push({ name: tag.name, mode });
        if (mode === 'drop') dropping += 1;
      } else if (isRoot) {
        rootClosed = true;
      }
      i = tag.end;
    }
  }
  if (!rootSeen || open.length > 0) throw new UnsafeSvgError(rootSeen ? 'unclosed elements' : 'no <svg> element');
  return `${out.join('')}\n`;
}

function modeOf(name: string, isRoot: boolean, insideDropped: boolean): Mode {
  if (insideDropped) return 'drop';
  if (name === 'svg') return isRoot ? 'keep' : 'drop'; // a nested document could carry its own rules
  if (KEPT_ELEMENTS.has(name)) return 'keep';
  return UNWRAPPED_ELEMENTS.has(name) ? 'unwrap' : 'drop';
}

function keptAttributes(attributes: Array<[string, string]>, isRoot: boolean): string {
  let result = '';
  for (const [name, value] of attributes) {
    if (isAttributeKept(name, value)) result += ` ${name}="${escapeAttribute(value)}"`;
  }
  // Standalone SVG needs its namespace; Graphviz always writes it, but it is not taken on trust.
  return isRoot ? ` xmlns="${SVG_NS}"${result}` : result;
}

function isAttributeKept(name: string, value: string): boolean {
  // Prefixed attributes (xlink:href, xml:base, xmlns:*, ev:*) and namespace declarations go, but
  // for Graphviz's xml:space; the root's xmlns is written by keptAttributes, no other is needed.
  if ((name.includes(':') && name !== 'xml:space') || name === 'xmlns') return false;
  const lower = name.toLowerCase();
  if (lower.startsWith('on') || REMOVED_ATTRIBUTES.has(lower)) return false;
  // CSS escapes could spell url( in a way the check below would not see.
  if (value.includes('\\') && name !== 'id' && name !== 'class') return false;
  if (!onlyLocalUrls(value)) return false;
  // Graphviz writes style only on gradient stops ("stop-color:#fff;stop-opacity:1."): no quotes, no at-rules.
  return lower !== 'style' || /^[\w\s#.,%:;()+-]*$/.test(value);
}

/** Whether every url(…) in the value points into the document (`url(#id)`). */
function onlyLocalUrls(value: string): boolean {
  if (!/url/i.test(value)) return true;
  for (const match of value.matchAll(/url\s*\(\s*(['"]?)\s*(.?)/gi)) {
    if (match[2] !== '#') return false;
  }
  return true;
}

type StartTag = { name: string; attributes: Array<[string, string]>; selfClosing: boolean; end: number };

const NAME = /[A-Za-z_][\w.:-]*/y;
const SPACE = /\s*/y;
const ATTRIBUTE = /([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;

function parseStartTag(svg: string, lt: number): StartTag {
  NAME.lastIndex = lt + 1;
  const name = NAME.exec(svg)?.[0];
  if (!name) throw new UnsafeSvgError(`malformed tag at offset ${lt}`);
  let i = NAME.lastIndex;
  const attributes: Array<[string, string]> = [];
  const seen = new Set<string>();
  for (;;) {
    SPACE.lastIndex = i;
    SPACE.exec(svg);
    const spaced = SPACE.lastIndex > i;
    i = SPACE.lastIndex;
    if (svg.startsWith('/>', i)) return { name, attributes, selfClosing: true, end: i + 2 };
    if (svg.startsWith('>', i)) return { name, attributes, selfClosing: false, end: i + 1 };
    ATTRIBUTE.lastIndex = i;
    const match = spaced ? ATTRIBUTE.exec(svg) : null;
    if (!match || seen.has(match[1])) throw new UnsafeSvgError(`malformed attribute in <${name}> at offset ${i}`);
    seen.add(match[1]);
    attributes.push([match[1], decodeEntities(match[2] ?? match[3])]);
    i = ATTRIBUTE.lastIndex;
  }
}

function endOf(svg: string, start: number, terminator: string): number {
  const end = svg.indexOf(terminator, start);
  if (end === -1) throw new UnsafeSvgError(`unterminated markup at offset ${start}`);
  return end + terminator.length;
}

/** The end of a `<!…>` declaration, skipping quoted strings and a DOCTYPE's [internal subset]. */
function endOfDeclaration(svg: string, start: number): number {
  let depth = 0;
  for (let i = start + 2; i < svg.length; i += 1) {
    const c = svg[i];
    if (c === '"' || c === "'") {
      i = svg.indexOf(c, i + 1);
      if (i === -1) break;
    } else if (c === '[') {
      depth += 1;
    } else if (c === ']') {
      depth -= 1;
    } else if (c === '>' && depth <= 0) {
      return i + 1;
    }
  }
  throw new UnsafeSvgError(`unterminated declaration at offset ${start}`);
}

export function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw; // the common case, and large SVGs have many small strings
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);/g, (whole, ref: string) => {
    if (ref[0] !== '#') return PREDEFINED_ENTITIES[ref] ?? whole; // an undefined entity stays visible as text
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return isXmlChar(code) ? String.fromCodePoint(code) : '\uFFFD';
  });
}

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff)
  );
}

// Characters XML 1.0 forbids even as references would make the output unreadable as XML.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// Most strings need no escaping; testing first spares large SVGs four copies of each.
const TEXT_SPECIAL = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const ATTRIBUTE_SPECIAL = /[&<>"\u0000-\u001F\uFFFE\uFFFF]/;

function escapeText(text: string): string {
  if (!TEXT_SPECIAL.test(text)) return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(NOT_XML, '\uFFFD');
}

function escapeAttribute(value: string): string {
  if (!ATTRIBUTE_SPECIAL.test(value)) return value;
  return escapeText(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
