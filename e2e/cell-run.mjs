// How a person runs their own version of a finished cell, and the states that say it ran: shared by
// the e2e specs (e2e/helpers.ts) and the benches (bench/drop.mjs), which drive the same steps.
// While a person's run is under way the cell keeps its last result's `data-cell-status` (the new
// result replaces it at the end, often with the same status), so the run's end is told by its
// badge (`edited by you`, `run again by you`) appearing with the status line's final words, not by
// a change of that attribute.

/** The badge a cell shows once a person's run of it is stored, by how it was run (components/chat/kernel-context.tsx's UserRun). */
export const USER_RUN_BADGE = { edited: 'edited by you', rerun: 'run again by you' };

/** What the status line says while a person's run is under way (components/chat/code-cell.tsx). */
export const USER_RUN_PENDING = 'running your version…';

/** Opens a finished cell's editor and puts `code` in it; returns the editor, for the Ctrl/Cmd+Enter that runs it. */
export async function editCell(cell, code) {
  await cell.getByRole('button', { name: 'Edit', exact: true }).click();
  const editor = cell.getByLabel('Edit code');
  await editor.fill(code);
  return editor;
}

/** A finished cell's run time as its status says it ("done in 1.2 s", "timed out after 340 ms"), in ms. */
export function runTimeMs(text) {
  const match = /(?:\bdone in|\bafter) (?:(\d+) min (\d+) s|(\d+(?:\.\d+)?) (ms|s))\b/.exec(text ?? '');
  if (!match) throw new Error(`no run time in the cell's status: ${text}`);
  if (match[1]) return (Number(match[1]) * 60 + Number(match[2])) * 1000;
  return Number(match[3]) * (match[4] === 's' ? 1000 : 1);
}
