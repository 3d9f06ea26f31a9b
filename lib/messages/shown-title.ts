/**
 * The one rule for the name a conversation shows, in the header and in the list alike: its title
 * (generated after the first answer, or renamed), else its first question shortened, else "New
 * conversation". Pure: the server applies it to the list, the page to the open conversation.
 */
import { z } from 'zod';

const MAX_TITLE = 60;
export const NO_TITLE = 'New conversation';

/** A line of text shortened to a title: whitespace folded, cut at a word near 60 characters. */
export function titleFromText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= MAX_TITLE) return line || NO_TITLE;
  const cut = line.slice(0, MAX_TITLE);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 40))}…`;
}

/** A stored message's parts, read back: only the text parts matter here. */
const partsSchema = z.array(z.unknown());
const textPartSchema = z.object({ type: z.literal('text'), text: z.string() });

/** The text of a message's parts (a stored row's or the AI SDK's), or null when it has none. */
export function questionText(parts: unknown): string | null {
  const list = partsSchema.safeParse(parts);
  if (!list.success) return null;
  const text = list.data
    .map((part) => textPartSchema.safeParse(part))
    .flatMap((part) => (part.success ? [part.data.text] : []))
    .join(' ')
    .trim();
  return text || null;
}

/** What the header and the list call a conversation. */
export function shownTitle(title: string | null, firstQuestion: string | null): string {
  if (title) return title;
  return firstQuestion ? titleFromText(firstQuestion) : NO_TITLE;
}
