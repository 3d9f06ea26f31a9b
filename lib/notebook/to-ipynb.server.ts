/**
 * A stored conversation as a Jupyter notebook (nbformat 4.5): the talk as markdown cells, each run
 * as a code cell with its stored outputs, so the notebook opens showing what the user saw and can
 * be run again in Jupyter.
 *
 * - Each run becomes the Python its target's notebook form gives (`notebook` of
 *   lib/targets/<id>/meta.ts): Python runs keep their code, SQL runs call `_runpad_sql`, Graphviz
 *   runs draw their DOT when Graphviz is installed. A target whose cells need setup (SQL) gets one
 *   setup code cell (source hidden), before the first code cell, only when such cells exist.
 * - The export runs outside Runpad (requirements.ts): `/data/` and `/output/` paths become
 *   `./data/` and `./output/`, and a first code cell names any missing package (or R) with the
 *   words to install it. A Python cell calling `sql()` brings the SQL setup in too.
 * - Outputs map to Jupyter's output model (outputs.ts), with `blob:` images resolved to base64 and
 *   tables as an HTML table plus fixed-width text. The stored outputs keep Runpad's drawings (SVG
 *   text, PNG if any), so nothing is lost.
 *
 * The conversation is first turned into a list of cells (`conversationCells`, cells.ts), which the
 * script exporter (`to-script.ts`) shares. Its last cell lists the answers' figures that no output
 * shows (lib/trace), when there are any.
 */
import 'server-only';
import type { StoredMessage } from '@/lib/db/queries/messages.server';
import { conversationCells, skippedSource, STOPPED_CELL_TAGS } from './cells.server';
import { notebookOutputs, toLines, type Notebook, type NotebookCell, type ResolveImage } from './outputs.server';

export { conversationCells, exportNeeds, REQUIREMENTS_CELL, type ConversationCell, type StoredRun } from './cells.server';
export { TABLE_ROWS_SHOWN, tableToFixedWidth, tableToHtml, toLines, type CodeCell, type MarkdownCell, type MimeData, type Notebook, type NotebookCell, type NotebookOutput, type Table } from './outputs.server';

// ---------------------------------------------------------------------------------------------
// The notebook

export async function toNotebook(input: {
  title: string | null;
  messages: StoredMessage[];
  /** Base64 of a stored blob, or null when it cannot be had (the image is then left out). */
  resolveImage: (sha256: string) => Promise<string | null>;
}): Promise<Notebook> {
  // One lookup per blob, however often the conversation shows it.
  const cache = new Map<string, Promise<string | null>>();
  const resolve: ResolveImage = (sha256) => {
    let pending = cache.get(sha256);
    if (!pending) {
      pending = input.resolveImage(sha256);
      cache.set(sha256, pending);
    }
    return pending;
  };

  let executionCount = 0;
  const cells = await Promise.all(
    conversationCells(input).map(async (cell): Promise<NotebookCell> => {
      if (cell.kind === 'markdown') return { cell_type: 'markdown', id: cell.id, metadata: {}, source: toLines(cell.markdown) };
      if (cell.kind === 'setup') {
        return {
          cell_type: 'code',
          id: cell.id,
          metadata: { jupyter: { source_hidden: true }, tags: [`runpad-${cell.name}`], runpad: { role: cell.name } },
          source: toLines(cell.source),
          execution_count: null,
          outputs: [],
        };
      }
      // Numbered synchronously, in cell order, before any await.
      const count = cell.run ? (executionCount += 1) : null;
      const runpad: Record<string, unknown> = { language: cell.language };
      if (cell.run) {
        runpad.status = cell.run.status;
        runpad.durationMs = cell.run.durationMs;
        if (cell.run.userRun) runpad.userRun = cell.run.userRun;
        if (cell.run.restarted) runpad.restarted = true;
      }
      const skipped = cell.stopped && cell.run !== null;
      if (skipped) runpad.skipped = true;
      const outputs = cell.run ? await notebookOutputs(cell.run, count, resolve) : [];
      if (cell.toolError) outputs.push({ output_type: 'stream', name: 'stderr', text: toLines(`${cell.toolError}\n`) });
      const metadata = skipped ? { runpad, tags: [...STOPPED_CELL_TAGS] } : { runpad };
      const source = skipped && cell.run ? skippedSource(cell.run, cell.source) : cell.source;
      return { cell_type: 'code', id: cell.id, metadata, source: toLines(source), execution_count: count, outputs };
    }),
  );

  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3 (ipykernel)', language: 'python' },
      language_info: {
        name: 'python',
        mimetype: 'text/x-python',
        file_extension: '.py',
        pygments_lexer: 'ipython3',
        codemirror_mode: { name: 'ipython', version: 3 },
        nbconvert_exporter: 'python',
      },
      runpad: { title: input.title },
    },
    cells,
  };
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * A download name from the title: ASCII letters, digits, `-` and `_` only (accents dropped, the
 * rest become `-`), at most 80 characters with the extension; `runpad-conversation` when the
 * title leaves nothing.
 */
export function exportFileName(title: string | null, extension: string): string {
  const base = (title ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, 80 - extension.length)
    .replace(/[-_]+$/, '');
  return `${base && !WINDOWS_RESERVED.test(base) ? base : 'runpad-conversation'}${extension}`;
}

export function notebookFileName(title: string | null): string {
  return exportFileName(title, '.ipynb');
}
