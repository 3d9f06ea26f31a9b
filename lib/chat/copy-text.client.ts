/**
 * What Copy on a message puts on the clipboard: its text, and each run of any target (from the
 * registry, through the stored run part) as a fenced block in its target's fence language, so
 * pasting it elsewhere keeps Python, SQL and DOT cells alike. Pure.
 */
import 'client-only';
import { readRunPart } from '@/lib/targets/run-part';

/** A fence of backticks longer than any run of backticks in `code` (CommonMark). */
function fenced(language: string, code: string): string {
  const longest = Math.max(0, ...Array.from(code.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${code}\n${fence}`;
}

export function messagePlainText(message: { parts: ReadonlyArray<unknown> }): string {
  return message.parts
    .map((part) => {
      if (typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text') {
        const text = (part as { text?: unknown }).text;
        return typeof text === 'string' ? text : '';
      }
      const run = readRunPart(part);
      return run && run.code !== null ? fenced(run.target.fence, run.code) : '';
    })
    .filter(Boolean)
    .join('\n\n');
}
