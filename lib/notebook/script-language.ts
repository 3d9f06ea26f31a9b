/**
 * Which script a conversation exports as: R when every run in it is R, else Python. Plain and
 * server-safe: the script route names its file by it (lib/notebook/to-script.ts) and the Download
 * menu labels its link by it, from the same messages.
 */
import { readRunPart } from '@/lib/targets/run-part';

export type ScriptLanguage = 'python' | 'r';

export function scriptLanguage(messages: ReadonlyArray<{ role: string; parts: ReadonlyArray<unknown> }>): ScriptLanguage {
  let runs = 0;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const value of message.parts) {
      const read = readRunPart(value);
      if (!read) continue;
      // A call cut off before any code arrived is no cell of the export (to-ipynb.ts).
      if (!read.code?.trim() && !read.recorded && read.part.state !== 'output-error') continue;
      if (read.target.id !== 'r') return 'python';
      runs += 1;
    }
  }
  return runs > 0 ? 'r' : 'python';
}

/** The Download menu's words for the script of that language. */
export const SCRIPT_LINK_LABEL: Record<ScriptLanguage, string> = { python: 'Python script (.py)', r: 'R script (.R)' };

/** The Download menu's words for the zip of notebook, script and data (lib/notebook/bundle.ts). */
export const WITH_DATA_LABEL = 'With data (.zip)';
