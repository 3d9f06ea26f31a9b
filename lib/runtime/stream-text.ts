/**
 * Printed text as a terminal (and Jupyter) shows it: a carriage return moves back to the start of
 * the line, and what follows overwrites it, so a progress line updated in place (tqdm's bars, a
 * `\r`-printed counter) keeps only its last state. A `\r` that ends the text stays: the next text
 * written overwrites that line, wherever it arrives.
 */

/** Folds every carriage return of `text` (the line's characters past an update's end remain, as on a terminal). */
export function foldCarriageReturns(text: string): string {
  if (!text.includes('\r')) return text;
  const lines = text.split('\n');
  return lines.map(foldLine).join('\n');
}

function foldLine(line: string): string {
  if (!line.includes('\r')) return line;
  const updates = line.split('\r');
  let shown = '';
  for (const update of updates) shown = update + shown.slice(update.length);
  // A line that ends in `\r` (or `\r\n`) waits to be overwritten by what comes next.
  return updates.at(-1) === '' ? `${shown}\r` : shown;
}

/**
 * `previous` (already folded) with `addition` written after it: only the open last line is folded
 * again, so appending stays proportional to what is added, not to all the text so far.
 */
export function appendStreamText(previous: string, addition: string): string {
  if (!addition.includes('\r') && !previous.endsWith('\r')) return previous + addition;
  const open = previous.lastIndexOf('\n') + 1;
  return previous.slice(0, open) + foldCarriageReturns(previous.slice(open) + addition);
}
