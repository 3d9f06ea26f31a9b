/**
 * Fenced code blocks in a model's streaming answer, for models that cannot call tools: each
 * block tagged with a runnable language is run as soon as its closing fence has streamed.
 *
 * Fences follow CommonMark (https://spec.commonmark.org/0.31.2/#fenced-code-blocks) for
 * top-level blocks. Container blocks (block quotes, list items indented 4+ spaces) are not
 * parsed: a fence inside them is not run, which errs on the side of running nothing.
 *
 * Which tags run, and as which target, is the registry's (`blockTags` of lib/targets/<id>/meta.ts).
 */
import 'server-only';
import { targetOfBlockTag, type TargetId } from '@/lib/targets/registry';

export type CodeBlock = {
  index: number;
  /** The target the block runs on. */
  target: TargetId;
  /** The content: fence indentation removed, lines joined with `\n`, trailing blank lines dropped. */
  code: string;
  /**
   * Offsets in the text: `start` is the first character of the opening fence line (its
   * indentation included), `end` is just past the closing fence line, its line ending excluded
   * (so that a `\r` followed later by `\n` does not move it).
   */
  start: number;
  end: number;
};

/** The target a fence's info string runs as, or null for anything else (left alone as plain markdown). */
export function blockTarget(info: string): TargetId | null {
  return targetOfBlockTag(info)?.id ?? null;
}

type Line = { text: string; start: number; end: number; terminated: boolean };

/** Lines with their offsets; CommonMark line endings are `\n`, `\r\n` and a lone `\r`. */
function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const ending = /\r\n|\r|\n/g;
  let start = 0;
  for (let match = ending.exec(text); match !== null; match = ending.exec(text)) {
    lines.push({ text: text.slice(start, match.index), start, end: match.index, terminated: true });
    start = match.index + match[0].length;
  }
  if (start < text.length) lines.push({ text: text.slice(start), start, end: text.length, terminated: false });
  return lines;
}

type Fence = { indent: number; char: '`' | '~'; length: number; rest: string };

/** A run of ≥3 backticks or tildes after at most 3 spaces; a tab there means 4+ columns, so no fence. */
function fenceOf(line: string): Fence | null {
  let indent = 0;
  while (indent < line.length && line[indent] === ' ') indent++;
  if (indent > 3) return null;
  const char = line[indent];
  if (char !== '`' && char !== '~') return null;
  let end = indent;
  while (line[end] === char) end++;
  const length = end - indent;
  if (length < 3) return null;
  return { indent, char, length, rest: line.slice(end) };
}

/** Removes up to `count` leading spaces: the opening fence's indentation (CommonMark). */
function stripIndent(line: string, count: number): string {
  let i = 0;
  while (i < count && line[i] === ' ') i++;
  return line.slice(i);
}

/**
 * Complete blocks (closing fence seen) with a runnable language, in order, from a possibly
 * partial markdown text. A line counts only once its line ending has arrived, or, with
 * `final` (the answer has ended), also when it is the unterminated last line. Because of that,
 * a block once returned for a prefix of a text is returned identically for every longer prefix.
 * A block that was never closed is not returned, even in a final text: it may be truncated.
 */
export function completeCodeBlocks(text: string, options: { final?: boolean } = {}): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let open: { fence: Fence; target: TargetId | null; start: number; content: string[] } | null = null;
  for (const line of splitLines(text)) {
    // The last line may still be streaming: "``" could become "```", "```" could become "```py".
    if (!line.terminated && !options.final) break;
    const fence = fenceOf(line.text);
    if (open === null) {
      if (fence === null) continue;
      // "```a`b```" is inline code in a paragraph, not a fence.
      if (fence.char === '`' && fence.rest.includes('`')) continue;
      open = { fence, target: blockTarget(fence.rest), start: line.start, content: [] };
      continue;
    }
    const closes = fence !== null && fence.char === open.fence.char && fence.length >= open.fence.length && /^[ \t]*$/.test(fence.rest);
    if (!closes) {
      // Shorter fences, other fence characters and fences with an info string are content.
      open.content.push(stripIndent(line.text, open.fence.indent));
      continue;
    }
    if (open.target !== null) {
      // Blank lines at the end mean nothing in Python, SQL or DOT; without them the code never
      // ends with a newline.
      const content = open.content.slice();
      while (content.length > 0 && /^[ \t]*$/.test(content[content.length - 1])) content.pop();
      blocks.push({ index: blocks.length, target: open.target, code: content.join('\n'), start: open.start, end: line.end });
    }
    open = null;
  }
  return blocks;
}
