/**
 * The targets code can be written for, in one place (ARCHITECTURE.md, "Targets"): per target its tool
 * name, input, where it runs, how its cell is labelled and highlighted, and how the model is told
 * about it. Adding a target is a folder (its runner) plus an entry here.
 */
import { z } from 'zod';

export type TargetId = 'python' | 'sql' | 'graphviz';

export type Target = {
  id: TargetId;
  /** The tool the model calls, and the `tool-<name>` type of its message parts. */
  toolName: TargetId;
  /** Where it runs: the conversation's Python interpreter, or a worker of its own (stateless). */
  runsIn: 'interpreter' | 'graphviz-worker';
  /** Cell header label and the fence language used to highlight its code. */
  label: string;
  fence: string;
  /** Tags of fenced blocks (blocks mode) that run as this target. */
  blockTags: readonly string[];
  description: string;
};

/** Every target's input is the code as a string. */
export const codeInputSchema = z.object({ code: z.string().describe('The code to run.') });
export type CodeInput = z.infer<typeof codeInputSchema>;

export const TARGETS: Record<TargetId, Target> = {
  python: {
    id: 'python',
    toolName: 'python',
    runsIn: 'interpreter',
    label: 'Python',
    fence: 'python',
    blockTags: ['python', 'py', 'python3'],
    description:
      "Run Python 3 code in the user's browser (Pyodide) and get back what it printed, displayed and raised. " +
      'State persists between calls. Print or display() what matters; the last expression of the code is shown too. ' +
      'Matplotlib figures are captured automatically. Files uploaded by the user are in /data; write files for the user to /output/. ' +
      'No network access and no pip.',
  },
  sql: {
    id: 'sql',
    toolName: 'sql',
    runsIn: 'interpreter',
    label: 'SQL · DuckDB',
    fence: 'sql',
    blockTags: ['sql', 'duckdb'],
    description:
      "Run SQL in the user's browser with DuckDB, in the same interpreter as Python. " +
      'Every file in /data is a table named after its file (sales.csv → sales; lowercase, other characters → _), read by DuckDB (its CSV sniffer infers the types). ' +
      "DuckDB dialect (PostgreSQL-like): date_trunc('month', d), strftime, quantile_cont, window functions, QUALIFY, read_csv('/data/x.csv'). " +
      'The result is shown as a table and is `_sql` in Python afterwards; Python can also call sql("…") (a pandas DataFrame when pandas is loaded, else a table with .columns and .rows) ' +
      'and sql_table(name, rows_or_csv_path) to make a table from its own data. Several statements separated by ; run in order; the last result is shown. ' +
      'Parquet, JSON and Excel files need DuckDB extensions, which may be unavailable offline; CSV always works.',
  },
  graphviz: {
    id: 'graphviz',
    toolName: 'graphviz',
    runsIn: 'graphviz-worker',
    label: 'Graphviz',
    fence: 'dot',
    blockTags: ['dot', 'graphviz', 'gv'],
    description:
      'Render a Graphviz DOT diagram (digraph or graph) in the user\'s browser; you get back a PNG of it, or the syntax error with its line. ' +
      'Use it for flowcharts, trees, dependency graphs and state machines. URL, href and image attributes are ignored.',
  },
};

export const TARGET_LIST: readonly Target[] = Object.values(TARGETS);

/** The target of a tool name or a `tool-<name>` part type, or null. */
export function targetOf(nameOrPartType: string): Target | null {
  const name = nameOrPartType.startsWith('tool-') ? nameOrPartType.slice('tool-'.length) : nameOrPartType;
  return name in TARGETS ? TARGETS[name as TargetId] : null;
}

/** Whether a message part is a code run of any target. */
export function isCodePartType(type: string): boolean {
  return targetOf(type) !== null && type.startsWith('tool-');
}
