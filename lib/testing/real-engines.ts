/**
 * The page's Python interpreter run by CPython (Debian's python3 in a venv holding exactly pandas and
 * matplotlib and what they need: lib/testing/python-env.ts), its
 * SQL answered by native DuckDB (@duckdb/node-api): the real engines' outputs, in the shape the
 * page sends them (lib/runtime/protocol.ts), for Node tests. Python cells and SQL cells share one
 * interpreter and one database, as in the page (lib/testing/cpython-kernel.py).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { Output, RunStatus } from '@/lib/runtime/protocol';
import { pythonEnvMissing, pythonEnvWith } from './python-env';

/** The Debian packages the page's interpreter uses here; a machine without them fails the test, naming them. */
const PACKAGES = ['python3-pandas', 'python3-matplotlib', 'python3-numpy'];

type Kind = 'integer' | 'number' | 'boolean' | 'string' | 'date' | 'datetime' | 'other';

/** DuckDB's type name as the bridge's kinds (lib/targets/sql/engine/result.ts). */
function kindOf(type: string): Kind {
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT)$/.test(type)) return 'integer';
  if (/^(FLOAT|DOUBLE|DECIMAL)/.test(type)) return 'number';
  if (type === 'BOOLEAN') return 'boolean';
  if (type === 'VARCHAR') return 'string';
  if (type === 'DATE') return 'date';
  if (type.startsWith('TIMESTAMP')) return 'datetime';
  return 'other';
}

function plain(value: unknown, kind: Kind): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'integer' || kind === 'number') {
    const number = Number(value);
    return Number.isFinite(number) ? number : String(value);
  }
  if (kind === 'boolean') return Boolean(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

async function answer(connection: DuckDBConnection, sql: string): Promise<{ result: string } | { error: string }> {
  try {
    const reader = await connection.runAndReadAll(sql);
    const types = reader.columnTypes().map((type) => type.toString());
    const kinds = types.map(kindOf);
    const rows = reader.getRowsJson().map((row) => row.map((value, i) => plain(value, kinds[i])));
    return { result: JSON.stringify({ columns: reader.columnNames(), kinds, types, rows }) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

export type EngineRun = { status: RunStatus; outputs: Output[] };

export type RealEngines = {
  run(target: 'python' | 'sql', code: string): Promise<EngineRun>;
  close(): Promise<void>;
};

/** One interpreter over `dataDir` (the page's /data) writing to `outputDir` (its /output). */
export async function startRealEngines(dataDir: string, outputDir: string): Promise<RealEngines> {
  const missing = pythonEnvMissing(PACKAGES);
  if (missing) throw new Error(`the page's Python interpreter cannot run here: ${missing}`);
  const venv = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-engines-'));
  const python = pythonEnvWith(PACKAGES, path.join(venv, 'venv'));
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const child: ChildProcessWithoutNullStreams = spawn(python.python, [path.join(import.meta.dirname, 'cpython-kernel.py'), dataDir, outputDir], { stdio: ['pipe', 'pipe', 'pipe'], env: python.env as NodeJS.ProcessEnv });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let queue = Promise.resolve<EngineRun | undefined>(undefined);

  async function runOne(target: 'python' | 'sql', code: string): Promise<EngineRun> {
    child.stdin.write(`${JSON.stringify({ target, code })}\n`);
    for (;;) {
      const next = await lines.next();
      if (next.done) throw new Error(`the Python interpreter ended: ${stderr.slice(-2_000)}`);
      const message = JSON.parse(next.value) as { kind: 'query'; sql: string } | { kind: 'result'; status: RunStatus; outputs: Output[] };
      if (message.kind === 'result') return { status: message.status, outputs: message.outputs };
      child.stdin.write(`${JSON.stringify(await answer(connection, message.sql))}\n`);
    }
  }

  return {
    run(target, code) {
      const run = queue.then(() => runOne(target, code));
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      child.stdin.end();
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      connection.closeSync();
      instance.closeSync();
      fs.rmSync(venv, { recursive: true, force: true });
    },
  };
}
