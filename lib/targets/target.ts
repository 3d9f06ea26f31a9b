/**
 * What a target is, server-safe (ARCHITECTURE.md, "Targets"): everything about a target that the
 * server, the model, storage and the exporters need, with no browser code. Each target defines one
 * in `lib/targets/<id>/meta.ts`; its browser runner (`lib/targets/<id>/runner.ts`) is apart, and
 * only the page loads it (lib/targets/runners.client.ts).
 */
import { z } from 'zod';
import type { DisplayMimeType } from '@/lib/runtime/mime-types';
import type { DeclaredWorker } from '@/lib/security/csp';
import type { TargetConfig } from './engine';

/** How restore treats a target's earlier runs after a reload. */
export type ReplayPolicy =
  /** State lives in an engine: earlier successful runs are replayed in order. */
  | 'replay'
  /** Each run stands alone (e.g. a diagram): nothing to replay. */
  | 'none';

/** Every target's input is the code as a string. */
export const codeInputSchema = z.object({ code: z.string().describe('The code to run.') });
export type CodeInput = z.infer<typeof codeInputSchema>;

/** Code that runs once, before the first cell of its target, in an exported notebook or script. */
export type NotebookSetup = {
  /** A stable name: the setup cell's id and tag (`runpad-<name>`). */
  name: string;
  source: string;
  /** A paragraph of the notebook's introduction saying what the setup does. */
  intro: string;
  /** Per data file, the name its cells use for it (e.g. SQL tables), listed in the introduction. */
  namesOfFiles?: (fileNames: string[]) => Map<string, string>;
  /** Whether a cell of another target uses the setup too (Python calling `sql()`). */
  usedBy?: (code: string, targetId: string) => boolean;
  /** The Python modules the setup's cells need, checked by the export's first code cell. */
  requires?: ReadonlyArray<{ module: string; why: string }>;
};

/** Whether a package source answers, as the page found it ('unknown': not asked yet). */
export const PACKAGE_SOURCE_ANSWERS = ['reachable', 'unreachable', 'unknown'] as const;
export type PackageSourceAnswer = (typeof PACKAGE_SOURCE_ANSWERS)[number];

/**
 * A script file of the target's own language (script export): what a conversation whose every
 * run is this target's downloads as (R's `.R`, its code as written). Python's is every other
 * conversation's script, each cell in its Python form.
 */
export type ScriptForm = {
  /** The file name's extension, with its dot: ".R". */
  extension: string;
  contentType: string;
  /** The Download menu's words: "R script (.R)". */
  label: string;
  /** What the script's header calls it: "an R script". */
  kind: string;
};

/** A program a target's exported cells run (R's `Rscript`), checked by the export's first code cell. */
export type NotebookProgram = {
  /** What a person installs: "R". */
  name: string;
  /** The command looked up on the PATH: "Rscript". */
  command: string;
  /** How to install it: "install R from https://cran.r-project.org". */
  install: string;
  /** The export's README line about it. */
  readme: string;
};

/** The words for a missing program: `subject` is "this cell" or "the R cells". */
export function missingProgramMessage(program: NotebookProgram, subject: string): string {
  const verb = subject === 'this cell' ? 'needs' : 'need';
  return `${program.name} is not installed (no ${program.command} on the PATH), and ${subject} ${verb} it: ${program.install}, then run the notebook again.`;
}

/** How a cell of the target becomes Python outside Runpad (notebook export, script export). */
export type NotebookForm = {
  /** The Python of the notebook cell. */
  cellSource: (code: string) => string;
  /** The Python of the script cell, when it differs (e.g. printed, as a script shows no bare value). */
  scriptSource?: (code: string) => string;
  setup?: NotebookSetup;
  /** Its code reads Runpad's `/data/` (and writes `/output/`): the export makes those paths relative. */
  readsFiles?: boolean;
  /** A script of its own language, for a conversation that ran only this target. */
  script?: ScriptForm;
  /** A program its cells run outside Runpad. */
  program?: NotebookProgram;
};

export type TargetDefinition<Id extends string = string> = {
  id: Id;
  /** The tool the model calls, and the `tool-<name>` type of its stored message parts. */
  toolName: Id;
  inputSchema: z.ZodType<CodeInput>;
  /** Short name (the cell's accessible name, script comments): "SQL". */
  name: string;
  /** The cell header: name and engine, "SQL · SQLite". */
  label: string;
  /** The fence language of its code (highlighting, Copy, blocks mode's answers); also its notebook `language`. */
  fence: string;
  /** Tags of fenced blocks (blocks mode) that run as this target; the first is the one the model is told. */
  blockTags: readonly string[];
  /** The tool description the model reads. */
  description: string;
  /** One line of the system prompt's list of tools. */
  prompt: string;
  /**
   * For a target whose engine downloads packages from a source of its own (R's repository): what
   * the model is told of them after its prompt line, by what the page found of that source.
   */
  packagesPrompt?: Record<PackageSourceAnswer, string>;
  /** The display MIME types its runs produce (beyond stream, error and file outputs). */
  mimeTypes: readonly DisplayMimeType[];
  /** Whether runs leave state (variables, tables) that later runs use. */
  stateful: boolean;
  /**
   * The engine its state lives in. Targets naming the same engine share state and lose it
   * together when it is replaced (Python and SQL share the Pyodide interpreter today).
   */
  engine: string;
  replay: ReplayPolicy;
  notebook: NotebookForm;
  /**
   * The worker scripts its engine runs in, each with the Content-Security-Policy it is served
   * with (lib/security/csp.ts): the sandbox boundary. A target that runs in another target's
   * worker declares none (SQL runs in Python's); a worker no target declares is served with none.
   */
  workers: readonly DeclaredWorker[];
  /**
   * Its engine's boot: a script the page's HTML starts it with, before the page's own JavaScript
   * (Python's worker), when the engine starts with the page. Server-safe: a URL.
   */
  bootScript?: (config: TargetConfig) => string;
  /** Whether its outputs are drawings, not results (tracing reads no numbers from them). */
  diagrams: boolean;
};

/** Keeps the literal id, so the registry's list gives `TargetId` its members. */
export function defineTarget<const Id extends string>(target: TargetDefinition<Id>): TargetDefinition<Id> {
  return target;
}
