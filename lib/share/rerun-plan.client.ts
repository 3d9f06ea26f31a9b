/**
 * Which cells of a shared snapshot "Re-run in my browser" runs again, in order. Unlike restore
 * (lib/targets/restore-plan.client.ts), which rebuilds state and so replays only successful Python runs,
 * a re-run checks what the snapshot shows: cells that ended with an error run too (their error is
 * compared), and Graphviz cells, which have no state, are re-rendered. Each run says which files
 * kept on the owner's device it reads (filesReadBy): only those cells wait for a reader's own copy.
 * Pure; parts that do not validate are left out, as the snapshot is data from the server.
 */
import 'client-only';
import { tableNameOf, type DataFile } from '@/lib/files/data-file';
import type { RunResult } from '@/lib/runtime/protocol';
import type { Target } from '@/lib/targets/registry';
import { readRunPart, runResultOf } from '@/lib/targets/run-part';

export type RerunStep =
  /** `reads`: the names of the files kept on a device that the code reads. */
  | { toolCallId: string; target: Target; kind: 'run'; code: string; recorded: RunResult; reads: string[] }
  /** Not re-run; `restartAfter` when the recorded run replaced its engine (later runs on it started empty). */
  | { toolCallId: string; target: Target; kind: 'skip'; reason: string; restartAfter: boolean };

/** Why a run that did not finish is not run again: it would only be stopped the same way. */
const NOT_RERUN: Record<Exclude<RunResult['status'], 'ok' | 'error'>, string> = {
  timeout: 'it ran out of time when recorded',
  interrupted: 'it was stopped when recorded',
  crashed: 'the interpreter crashed when it was recorded',
  'page-closed': 'it was cut off when recorded',
};

/** Targets whose code reads /data (JavaScript and Graphviz have no files). */
const READS_DATA = new Set(['python', 'sql', 'r']);
/** SQL that lists every table, so it shows whether a kept file's table is there. */
const LISTS_TABLES = /\b(information_schema|duckdb_tables|duckdb_columns|show\s+(all\s+)?tables)\b/i;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The files kept on a device that a cell's code reads: those it names (`/data/<name>`, its name,
 * or its SQL table name as a word), or all of them when it reads /data as a folder (a listing, a
 * path it builds) or lists the SQL tables. A code that names none of them reads none.
 */
export function filesReadBy(target: Target, code: string, files: readonly DataFile[]): DataFile[] {
  const kept = files.filter((file) => file.location === 'device');
  if (kept.length === 0 || !READS_DATA.has(target.id)) return [];
  const names = files.map((file) => file.name).sort((a, b) => b.length - a.length);
  // `/data` not followed by the name of one of the conversation's files: the folder as a whole.
  const wholeFolder = [...code.matchAll(/\/data\b/g)].some((match) => !names.some((name) => code.startsWith(`/${name}`, match.index + '/data'.length)));
  if (wholeFolder || LISTS_TABLES.test(code)) return kept;
  return kept.filter((file) => code.includes(file.name) || new RegExp(`(?<![\\w.])${escaped(tableNameOf(file.name))}(?!\\w)`, 'i').test(code));
}

export function planRerun(messages: ReadonlyArray<{ role: string; parts: ReadonlyArray<unknown> }>, files: readonly DataFile[] = []): RerunStep[] {
  const steps: RerunStep[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant' || !Array.isArray(message.parts)) continue;
    for (const value of message.parts) {
      const read = readRunPart(value);
      if (!read) continue;
      const { part, target, code } = read;
      const { toolCallId } = part;
      const result = runResultOf(part);
      if (!result || code === null) {
        steps.push({ toolCallId, target, kind: 'skip', reason: 'it has no recorded result', restartAfter: false });
        continue;
      }
      if (result.restarted === true) {
        // Its engine was replaced: what follows ran in an empty one, and will here too.
        const reason = result.status === 'ok' || result.status === 'error' ? 'its interpreter was replaced when recorded' : NOT_RERUN[result.status];
        steps.push({ toolCallId, target, kind: 'skip', reason, restartAfter: target.stateful });
      } else if (result.status === 'ok' || result.status === 'error') {
        steps.push({ toolCallId, target, kind: 'run', code, recorded: result, reads: filesReadBy(target, code, files).map((file) => file.name) });
      } else {
        steps.push({ toolCallId, target, kind: 'skip', reason: NOT_RERUN[result.status], restartAfter: false });
      }
    }
  }
  return steps;
}
