/**
 * Which script a conversation exports as: the script form of the one target all its runs are of,
 * when that target declares one (an R-only conversation is R's `.R`); else the notebook's own
 * language, Python, in which every target's cell has a form (lib/targets/target.ts, `notebook`).
 * Plain and server-safe: the script route names its file by it (lib/notebook/to-script.server.ts) and the
 * Download menu labels its link by it, from the same messages.
 */
import { TARGETS, type TargetId } from '@/lib/targets/registry';
import { readRunPart } from '@/lib/targets/run-part';
import type { ScriptForm } from '@/lib/targets/target';

/** The target whose script form the export is. */
export type ScriptLanguage = TargetId;

/** The language of exported cells: notebooks run on a Python kernel, and every target's cell has a Python form. */
export const NOTEBOOK_LANGUAGE = TARGETS.python;

export function scriptLanguage(messages: ReadonlyArray<{ role: string; parts: ReadonlyArray<unknown> }>): ScriptLanguage {
  let only: TargetId | null = null;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const value of message.parts) {
      const read = readRunPart(value);
      if (!read) continue;
      // A call cut off before any code arrived is no cell of the export (to-ipynb.ts).
      if (!read.code?.trim() && !read.recorded && read.part.state !== 'output-error') continue;
      if (only !== null && only !== read.target.id) return NOTEBOOK_LANGUAGE.id;
      only = read.target.id;
    }
  }
  return only !== null && TARGETS[only].notebook.script ? only : NOTEBOOK_LANGUAGE.id;
}

/** The script form of that language: its own, else the notebook language's. */
export function scriptForm(language: ScriptLanguage): ScriptForm {
  const form = TARGETS[language].notebook.script ?? NOTEBOOK_LANGUAGE.notebook.script;
  if (!form) throw new Error(`no script form for ${language} nor for the notebook language`);
  return form;
}

/** Whether the script is the cells' code as written (a target's own script), not their Python forms. */
export const isOwnScript = (language: ScriptLanguage): boolean => language !== NOTEBOOK_LANGUAGE.id;

/** The Download menu's words for the zip of notebook, script and data (lib/notebook/bundle.server.ts). */
export const WITH_DATA_LABEL = 'With data (.zip)';
