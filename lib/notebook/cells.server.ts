/**
 * A stored conversation as an ordered list of cells, shared by the notebook (to-ipynb.ts) and the
 * script (to-script.ts) exporters and the zip with data (bundle.ts): the talk as markdown, each run
 * as the code its target's notebook form gives (lib/targets/<id>/meta.ts), with Runpad's `/data/`
 * and `/output/` made relative; the targets' setups and a first cell checking what the export needs
 * (requirements.ts) only when used. Its last cell lists the answers' figures that no output shows.
 */
import 'server-only';
import { z } from 'zod';
import type { StoredMessage } from '@/lib/db/queries/messages.server';
import { attachmentsOf, type Attachment } from '@/lib/messages/attachment';
import { formatBytes, formatDuration } from '@/lib/format';
import { TARGET_LIST, type TargetId } from '@/lib/targets/registry';
import { readRunPart, type RecordedRun } from '@/lib/targets/run-part';
import type { NotebookSetup } from '@/lib/targets/target';
import { traceConversation, untracedMarkdown } from '@/lib/trace';
import { checkCellSource, importedModules, isKnownPackage, relativePaths, usesOutputFolder, type Needs, type Requirement } from './requirements';

/** A run as stored (lib/targets/run-part.ts): outputs are read leniently, so an export never drops what is stored. */
export type StoredRun = RecordedRun;

export type ConversationCell =
  | { kind: 'markdown'; id: string; markdown: string }
  /** A target's setup (e.g. `_runpad_sql`), the first code cells, only when cells of its target exist. */
  | { kind: 'setup'; id: string; name: string; source: string }
  | {
      kind: 'code';
      id: string;
      target: TargetId;
      /** The target's fence language (python, sql, dot): the notebook's `runpad.language`. */
      language: string;
      /** What the model (or the user) wrote: Python, SQL or DOT. */
      code: string;
      /** The Python that runs it outside Runpad. */
      source: string;
      /** The Python of the script form, when it differs from `source`. */
      scriptSource: string;
      run: StoredRun | null;
      /**
       * The run was stopped before it ended (the person's Stop, the time limit): its cell is
       * marked and its code commented out (`skippedSource`), so Run All goes on past it instead of
       * sitting in the loop it was stopped in.
       */
      stopped: boolean;
      /** The tool call failed before running (AI SDK `output-error`). */
      toolError?: string;
    };

const textPartSchema = z.looseObject({ type: z.literal('text'), text: z.string() });

/** nbformat 4.5 cell ids: 1–64 of `[a-zA-Z0-9-_]`, unique within the notebook. */
class CellIds {
  private readonly taken = new Set<string>();

  next(raw: string): string {
    const base = raw.replace(/[^a-zA-Z0-9_-]+/g, '-').slice(0, 56) || 'cell';
    let id = base;
    for (let n = 2; this.taken.has(id); n += 1) id = `${base}-${n}`;
    this.taken.add(id);
    return id;
  }
}

/** `text` as inline code, with a fence longer than any run of backticks in it. */
function inlineCode(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function attachmentList(files: Attachment[], tables: Map<string, string> | null): string[] {
  return files.map((file) => {
    const table = tables?.get(file.name);
    return `- ${inlineCode(file.name)} (${formatBytes(file.size)})${table ? `, SQL table ${inlineCode(table)}` : ''}`;
  });
}

function userMarkdown(message: StoredMessage): string | null {
  const text = message.parts
    .flatMap((part) => {
      const parsed = textPartSchema.safeParse(part);
      return parsed.success && parsed.data.text.trim() ? [parsed.data.text.trim()] : [];
    })
    .join('\n\n');
  const files = attachmentsOf(message.metadata);
  if (!text && files.length === 0) return null;
  // A line of its own, so a user message that starts with a heading or a list still renders as one.
  const blocks = ['**You:**'];
  if (text) blocks.push(text);
  if (files.length > 0) blocks.push(['Attached (under `/data/` in Runpad, `./data/` here):', ...attachmentList(files, null)].join('\n'));
  return blocks.join('\n\n');
}

/** Per data file, the names setups give it (e.g. its SQL table), joined. */
function fileNames(setups: readonly NotebookSetup[], names: string[]): Map<string, string> | null {
  const maps = setups.flatMap((setup) => (setup.namesOfFiles ? [setup.namesOfFiles(names)] : []));
  if (maps.length === 0) return null;
  const joined = new Map<string, string>();
  for (const map of maps) for (const [file, name] of map) joined.set(file, joined.has(file) ? `${joined.get(file)}, ${name}` : name);
  return joined;
}

function introMarkdown(title: string | null, files: Attachment[], setups: readonly NotebookSetup[]): string | null {
  if (title === null && files.length === 0 && setups.length === 0) return null;
  const blocks: string[] = [];
  if (title !== null && oneLine(title)) blocks.push(`# ${oneLine(title)}`);
  blocks.push('Exported from Runpad, where this code ran in the browser.');
  if (files.length > 0) {
    const unique = [...new Map(files.map((file) => [file.name, file])).values()];
    blocks.push(
      [
        'Files of this conversation: Runpad kept them under `/data/`; here the cells read them from `./data/` beside the notebook (the download with data puts them there):',
        ...attachmentList(unique, fileNames(setups, unique.map((f) => f.name))),
      ].join('\n'),
    );
  }
  for (const setup of setups) blocks.push(setup.intro);
  return blocks.join('\n\n');
}

/** The conversation as an ordered list of cells; ids are unique and nbformat-valid. */
export function conversationCells(input: { title: string | null; messages: StoredMessage[] }): ConversationCell[] {
  const ids = new CellIds();
  const introId = ids.next('runpad-intro');
  const checkId = ids.next('runpad-requirements');
  const setupIds = new Map(TARGET_LIST.flatMap((target) => (target.notebook.setup ? [[target.id, ids.next(`runpad-${target.notebook.setup.name}`)] as const] : [])));
  const body: ConversationCell[] = [];
  const files: Attachment[] = [];

  for (const message of input.messages) {
    if (message.role === 'user') {
      files.push(...attachmentsOf(message.metadata).filter((file) => !files.some((known) => known.name === file.name)));
      const markdown = userMarkdown(message);
      if (markdown) body.push({ kind: 'markdown', id: ids.next(message.id), markdown });
      continue;
    }
    if (message.role !== 'assistant') continue;
    // Consecutive text parts (reasoning and step boundaries in between are skipped) make one cell.
    let pending: { index: number; texts: string[] } | null = null;
    const flush = () => {
      if (pending && pending.texts.length > 0) body.push({ kind: 'markdown', id: ids.next(`${message.id}-${pending.index}`), markdown: pending.texts.join('\n\n') });
      pending = null;
    };
    message.parts.forEach((part, index) => {
      const text = textPartSchema.safeParse(part);
      if (text.success) {
        if (!text.data.text.trim()) return;
        pending ??= { index, texts: [] };
        pending.texts.push(text.data.text.trim());
        return;
      }
      const read = readRunPart(part);
      if (!read) return;
      flush();
      const { target, part: run } = read;
      // Runpad's /data/ and /output/ are ./data/ and ./output/ beside the export.
      const code = target.notebook.readsFiles ? relativePaths(read.code ?? '') : (read.code ?? '');
      const toolError = run.state === 'output-error' ? (run.errorText ?? 'The tool call failed.') : undefined;
      if (!code.trim() && !read.recorded && !toolError) return; // a call cut off before any code arrived
      const { cellSource, scriptSource } = target.notebook;
      body.push({
        kind: 'code',
        id: ids.next(run.toolCallId),
        target: target.id,
        language: target.fence,
        code,
        source: cellSource(code),
        scriptSource: scriptSource ? scriptSource(code) : cellSource(code),
        run: read.recorded,
        stopped: isStoppedRun(read.recorded),
        ...(toolError ? { toolError } : {}),
      });
    });
    flush();
  }

  // The figures of the answers that no output shows (lib/trace), as the chat marks them.
  const untraced = untracedMarkdown(traceConversation(input.messages).values());
  if (untraced) body.push({ kind: 'markdown', id: ids.next('runpad-untraced-figures'), markdown: untraced });

  const used = TARGET_LIST.filter((target) => {
    const setup = target.notebook.setup;
    return setup && body.some((cell) => cell.kind === 'code' && (cell.target === target.id || setup.usedBy?.(cell.code, cell.target)));
  });
  const setups = used.flatMap((target) => (target.notebook.setup ? [{ target: target.id, setup: target.notebook.setup }] : []));
  const intro = introMarkdown(
    input.title,
    files,
    setups.map((s) => s.setup),
  );
  const setupCells = setups.map(({ target, setup }) => ({ kind: 'setup' as const, id: setupIds.get(target) as string, name: setup.name, source: setup.source }));
  const needs = exportNeeds([...setupCells, ...body]);
  const check = needs.requirements.length > 0 || needs.programs.length > 0 || needs.output ? [{ kind: 'setup' as const, id: checkId, name: REQUIREMENTS_CELL, source: checkCellSource(needs) }] : [];
  return [
    ...(intro ? [{ kind: 'markdown' as const, id: introId, markdown: intro }] : []),
    ...check,
    ...setupCells,
    ...body,
  ];
}

/** Statuses of a run stopped before it ended: the person's Stop, the time limit. */
const STOPPED_STATUSES: ReadonlySet<string> = new Set(['interrupted', 'timeout']);

function isStoppedRun(run: StoredRun | null): boolean {
  return run !== null && STOPPED_STATUSES.has(run.status);
}

/** The tags a stopped cell carries: Runpad's own, and the one nbclient and papermill skip by. */
export const STOPPED_CELL_TAGS = ['runpad-stopped', 'skip-execution'] as const;

/**
 * Every line as a comment. Splits on every character Python's tokenizer ends a line at (and the
 * Unicode separators, for editors), so no text can escape the comment; NULs, which Python source
 * cannot hold, are dropped. `#` starts a comment in R too.
 */
export function toComment(text: string): string {
  return text
    .replace(/\0/g, '')
    .split(/\r\n|[\r\n\v\f\u0085\u2028\u2029]/)
    .map((line) => (line.trim() ? `# ${line.trimEnd()}` : '#'))
    .join('\n');
}

/** A stopped cell's code, commented out under a line that says why and how to run it. */
export function skippedSource(run: StoredRun, source: string): string {
  const how = run.status === 'timeout' ? `stopped by the time limit after ${formatDuration(run.durationMs)}` : `interrupted after ${formatDuration(run.durationMs)}`;
  return [
    `# Stopped in Runpad (${how}), so it is skipped here: Run All goes on past it.`,
    '# To run it, remove the "# " at the start of each line below.',
    toComment(source.trimEnd()),
  ].join('\n');
}

/** The setup name (cell tag `runpad-requirements`) of the first code cell, which checks what the export needs. */
export const REQUIREMENTS_CELL = 'requirements';

/** What the export's cells need outside Runpad: Python modules, R, the `./output/` folder. */
export function exportNeeds(cells: readonly ConversationCell[]): Needs {
  const requirements: Requirement[] = [];
  const add = (module: string, why: string) => {
    if (!requirements.some((req) => req.module === module)) requirements.push({ module, why });
  };
  for (const cell of cells) {
    if (cell.kind === 'setup') {
      const setup = TARGET_LIST.find((target) => target.notebook.setup?.name === cell.name)?.notebook.setup;
      for (const req of setup?.requires ?? []) add(req.module, req.why);
    } else if (cell.kind === 'code' && cell.target === 'python') {
      for (const name of importedModules(cell.code).filter(isKnownPackage)) add(name, 'the Python cells');
    }
  }
  const code = cells.flatMap((cell) => (cell.kind === 'code' ? [cell] : []));
  const programs = TARGET_LIST.flatMap((target) =>
    target.notebook.program && code.some((cell) => cell.target === target.id) ? [{ program: target.notebook.program, cells: `the ${target.name} cells` }] : [],
  );
  return { requirements, programs, output: code.some((cell) => usesOutputFolder(cell.code)) };
}
