/**
 * A stored conversation as a Python script in the percent format (`# %%` cells, which Jupytext,
 * VS Code and Spyder understand): the talk as `# %% [markdown]` cells of `#` comments, each run's
 * code in order. It uses the cells of `to-ipynb.ts`, so SQL and Graphviz runs take the same form
 * as in the notebook (the `_runpad_sql` setup once, before the first cell; DOT as a literal with
 * the graphviz fallback). An SQL cell prints its result, because a script run with `python3`
 * shows nothing of a bare expression; stored outputs are not part of a script.
 */
import 'server-only';
import type { StoredMessage } from '@/lib/db/queries/messages.server';
import { TARGETS } from '@/lib/targets/registry';
import { conversationCells, exportFileName } from './to-ipynb.server';
import { skippedSource, toComment } from './cells.server';
import { isOwnScript, NOTEBOOK_LANGUAGE, scriptForm, scriptLanguage } from './script-language';

export { toComment };

/** Runpad and Jupyter have a built-in `display()`; a plain `python3` run gets IPython's or `print`. */
export const DISPLAY_FALLBACK = [
  '# Runpad and Jupyter provide display(); elsewhere IPython\'s, or print.',
  'try:',
  '    display',
  'except NameError:',
  '    try:',
  '        from IPython.display import display',
  '    except ImportError:',
  '        display = print',
].join('\n');

export function toScript(input: { title: string | null; messages: StoredMessage[] }): string {
  // The title is in the first markdown cell; the header says what the file is.
  const cells = conversationCells(input);
  // A conversation that ran only a target with a script form of its own (R) is that script: the
  // same percent cells (its comments are `#` too), the code as written.
  const language = scriptLanguage(input.messages);
  const own = isOwnScript(language);
  const blocks: string[] = [
    `# Exported from Runpad: the conversation ${own ? `as ${scriptForm(language).kind} ` : ''}in the percent cell format of Jupytext and VS Code.\n# Stored outputs are not included.`,
  ];
  if (cells.some((cell) => cell.kind === 'code' && cell.target === 'python' && /\bawait\b/.test(cell.code))) {
    // Runpad (like IPython) allows top-level await; plain Python does not, and it cannot be rewritten faithfully.
    blocks[0] += '\n# Some cells use top-level `await`: run them in Jupyter/IPython or an interactive window, not with plain python3.';
  }
  let needsDisplay = cells.some((cell) => cell.kind === 'code' && cell.target === 'python' && /\bdisplay\s*\(/.test(cell.code));
  for (const cell of cells) {
    if (needsDisplay && cell.kind !== 'markdown') {
      // Before the first code, after the introduction.
      blocks.push(`# %%\n${DISPLAY_FALLBACK}`);
      needsDisplay = false;
    }
    if (cell.kind === 'markdown') {
      blocks.push(`# %% [markdown]\n${toComment(cell.markdown)}`);
    } else if (cell.kind === 'setup') {
      // Setups are Python; a script of another language needs none (that language runs it).
      if (!own) blocks.push(`# %%\n${cell.source.trimEnd()}`);
    } else {
      const notes: string[] = [];
      if (cell.target !== NOTEBOOK_LANGUAGE.id && !own) notes.push(`# ${TARGETS[cell.target].name} run`);
      if (cell.run?.userRun === 'edited') notes.push('# (edited by the user)');
      else if (cell.run?.userRun === 'rerun') notes.push('# (run again by the user)');
      if (cell.toolError) notes.push(toComment(`The tool call failed: ${cell.toolError}`));
      else if (!cell.run) notes.push('# (did not run in Runpad)');
      const code = (own ? cell.code : cell.scriptSource).trimEnd();
      const source = cell.stopped && cell.run ? skippedSource(cell.run, code) : code;
      blocks.push(['# %%', ...notes, source].join('\n'));
    }
  }
  return `${blocks.join('\n\n')}\n`;
}

/** The script's name and type, from its form (`.R` when the conversation ran only R, else `.py`). */
export function scriptFormat(input: { title: string | null; messages: StoredMessage[] }): { fileName: string; contentType: string } {
  const form = scriptForm(scriptLanguage(input.messages));
  return { fileName: exportFileName(input.title, form.extension), contentType: form.contentType };
}

export function scriptFileName(title: string | null): string {
  return exportFileName(title, scriptForm(NOTEBOOK_LANGUAGE.id).extension);
}
