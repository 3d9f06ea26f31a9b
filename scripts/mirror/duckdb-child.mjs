// Test helper (duckdb-engine.test.ts), run as a child process: starts the installed DuckDB-wasm
// engine under Node as the mirror does, prints its facts as one JSON line, then reads one JSON line
// { statements, queries }, runs them and prints what each query did. A child, because DuckDB-wasm's
// Node runtime blocks its thread while it fetches an extension, and the test's server must answer.
import readline from 'node:readline';
import { engineFacts, openEngine } from './duckdb-engine.mjs';

const db = await openEngine();
process.stdout.write(`${JSON.stringify(engineFacts(db))}\n`);
const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  const { statements, queries } = JSON.parse(line);
  const connection = db.connect();
  for (const statement of statements) connection.query(statement);
  const results = queries.map((query) => {
    try {
      connection.query(query);
      return { query, error: null };
    } catch (error) {
      return { query, error: String(error?.message ?? error) };
    }
  });
  process.stdout.write(`${JSON.stringify(results)}\n`);
  break;
}
lines.close();
