/**
 * The figures of an answer's prose: the numbers a reader takes as results. Kept out: dates, times
 * and years, list and section labels ("1.", "step 2", "[3]"), ordinals ("3rd"), versions
 * ("Python 3.12"), identifiers glued to letters ("Q3", "COVID-19", "x2"), significance thresholds
 * ("p < 0.05", "95% confidence"), and — in markdown — code spans, code blocks and links.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { Nodes } from 'mdast';
import { numberTokens, type NumberToken } from './numbers';

export type Figure = NumberToken & {
  /** A few words around the figure, for the list of figures. */
  context: string;
};

const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![a-z])';
/** Spans of `text` that are dates or times; no figure is taken from inside one. */
const DATE_SPANS: readonly RegExp[] = [
  /\b\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?/g,
  /\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/g,
  /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?/gi,
  /\b\d{1,2}\s?[ap]\.?m\.?(?![a-z])/gi,
  new RegExp(`\\b${MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?(?!\\d)`, 'gi'),
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\.?(?:,?\\s+\\d{4})?`, 'gi'),
  new RegExp(`\\b${MONTH}\\.?,?\\s+'?\\d{2,4}\\b`, 'gi'),
  /\b(?:19|20)\d{2}\s?[-–—/]\s?(?:(?:19|20)\d{2}|\d{2})\b/g,
  /\b(?:Q[1-4]|H[12]|FY)\s?'?\d{2,4}\b/g,
];

/** Words after which a number names something (a step, a cell, a version) instead of measuring it. */
const LABEL_BEFORE =
  /(?:^|[^\p{L}])(?:step|steps|figure|fig\.|table|section|chapter|item|option|cell|line|lines|run|query|page|version|python|pyodide|pandas|numpy|sqlite|duckdb|rank|ranked|number|no\.|top|bottom|first|last|next|previous|day|week|quarter|phase|part|appendix|column|col|tier|ticket|issue|example|case|test|group|cluster|class|epoch|iteration|attempt|round|seed|random_state|bins|degree|lag|window|python3|node|es|utf|iso|rfc|http|ipv|cell #|#)\s*(?:=|:)?\s*$/iu;
/** Words before a year. */
const YEAR_BEFORE = /(?:^|[^\p{L}])(?:in|since|from|to|by|of|during|until|till|before|after|through|between|and|or|year|years|fiscal|fy|early|late|mid|end|start|around|circa|for|than|vs\.?|versus)\s+$/iu;
const NOT_COUNT_NOUNS = new Set(['was', 'is', 'has', 'its', 'this', 'as', 'us', 'plus', 'versus', 'across', 'thus', 'saw', 'does', 'sales', 'revenues', 'results', 'levels', 'figures', 'numbers', 'prices', 'totals', 'earnings']);

/** The date and time spans of `text` ([start, end) pairs), found once per text. */
export function dateSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const pattern of DATE_SPANS) for (const match of text.matchAll(pattern)) spans.push([match.index, match.index + match[0].length]);
  return spans;
}

export function insideSpan(spans: ReadonlyArray<[number, number]>, token: Pick<NumberToken, 'start' | 'end'>): boolean {
  return spans.some(([start, end]) => start < token.end && end > token.start);
}

function isPlainInteger(token: NumberToken): boolean {
  return token.decimals === 0 && !token.raw.includes(',') && token.scale === 1 && !token.percent && !token.currency && token.unit === null;
}

function isYear(text: string, token: NumberToken): boolean {
  if (!isPlainInteger(token) || token.negative || token.mantissa < 1900 || token.mantissa > 2100) return false;
  const after = /^\s+([a-z]+)/.exec(text.slice(token.end))?.[1];
  const countNoun = after !== undefined && after.length > 2 && after.endsWith('s') && !NOT_COUNT_NOUNS.has(after);
  return !countNoun || YEAR_BEFORE.test(text.slice(Math.max(0, token.start - 16), token.start));
}

/** Why a number token of `text` is not a figure, or null when it is one. */
export function notAFigure(text: string, token: NumberToken, dates: ReadonlyArray<[number, number]> = dateSpans(text)): string | null {
  const before = text.slice(Math.max(0, token.start - 24), token.start);
  const prev = before.at(-1) ?? '';
  const after = text.slice(token.end, token.end + 24);
  const next = after[0] ?? '';
  if (/[\p{L}_#@\\/:^]/u.test(prev)) return 'glued to a word, a path or a time';
  if (/[-–]/.test(prev) && /\p{L}/u.test(before.at(-2) ?? '')) return 'part of a name (COVID-19)';
  if (/[\p{L}_]/u.test(next) && token.unit === null && token.scale === 1 && !token.percent) return 'glued to letters (3rd, 3D)';
  if (/^\.\d/.test(after) || /\d\.$/.test(before)) return 'a version';
  if (/^[:/]\d/.test(after)) return 'a time or a date';
  if (insideSpan(dates, token)) return 'a date';
  if (isYear(text, token)) return 'a year';
  if (/^\d{2,4}s$/.test(token.raw) && token.mantissa % 10 === 0) return 'a decade';
  if (isPlainInteger(token) && /(?:^|\n)\s*\(?$/.test(before) && /^[.)]\s/.test(after)) return 'a list label';
  if (prev === '[' && next === ']') return 'a reference';
  if (LABEL_BEFORE.test(before) && !token.percent && !token.currency) return 'a label';
  if (/(?:^|[^\p{L}])(?:p|p-value)\s*(?:<|≤|<=)\s*$/iu.test(before) || /(?:alpha|α)\s*=\s*$/iu.test(before)) return 'a significance threshold';
  if (token.percent && /^\s*(?:confidence|CI\b|credible|prediction interval|significance|level)/i.test(after)) return 'a confidence level';
  return null;
}

/** The figures of one run of plain text (a text node of the answer). */
export function findFigures(text: string): Figure[] {
  const dates = dateSpans(text);
  return numberTokens(text)
    .filter((token) => notAFigure(text, token, dates) === null)
    .map((token) => ({ ...token, context: contextOf(text, token) }));
}

function contextOf(text: string, token: NumberToken): string {
  const from = Math.max(0, token.start - 40);
  const to = Math.min(text.length, token.end + 40);
  const head = text.slice(from, token.start).replace(/^\S*\s/, from > 0 ? '' : '$&');
  const tail = text.slice(token.end, to).replace(/\s\S*$/, to < text.length ? '' : '$&');
  return `${from > 0 ? '…' : ''}${head}${token.raw}${tail}${to < text.length ? '…' : ''}`.replace(/\s+/g, ' ').trim();
}

/** Markdown nodes whose text is no prose figure: code, links, images, raw HTML, math. */
const SKIPPED = new Set(['code', 'inlineCode', 'link', 'linkReference', 'image', 'imageReference', 'html', 'definition', 'math', 'inlineMath', 'footnoteReference']);

/** The figures of an answer written in markdown, in reading order. */
export function proseFigures(markdown: string): Figure[] {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const figures: Figure[] = [];
  const visit = (node: Nodes) => {
    if (SKIPPED.has(node.type)) return;
    if (node.type === 'text') {
      figures.push(...findFigures(node.value));
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  return figures;
}

/** The markdown node types whose text is left out, for renderers that walk their own tree. */
export const SKIPPED_HTML_TAGS: ReadonlySet<string> = new Set(['code', 'pre', 'a', 'img', 'svg', 'math', 'sup']);
