/**
 * For the test files that share one module graph (vitest.config.ts): a file that leaves the
 * environment or the global object changed fails, naming the change, instead of a later file
 * failing for a reason it cannot see. Such a file belongs with the isolated ones: the config puts
 * it there when it uses vi.mock, vi.stubEnv and the like, or writes process.env or globalThis.
 */
import { afterAll, beforeAll } from 'vitest';

let environment: Record<string, string | undefined> = {};
let globals = new Set<string>();

beforeAll(() => {
  environment = { ...process.env };
  globals = new Set(Object.getOwnPropertyNames(globalThis));
});

afterAll(() => {
  const changed = [...new Set([...Object.keys(environment), ...Object.keys(process.env)])].filter((name) => environment[name] !== process.env[name]);
  // The app's own per-process singletons (the database, the logger…) live on globalThis as
  // `runpad…`, made once per process as in the server: sharing them is what a process does.
  const added = Object.getOwnPropertyNames(globalThis).filter((name) => !globals.has(name) && !name.startsWith('runpad'));
  if (changed.length > 0 || added.length > 0) {
    throw new Error(
      `This test file shares its module graph with others but changed ${[...changed.map((name) => `process.env.${name}`), ...added.map((name) => `globalThis.${name}`)].join(', ')}: restore it, or make the change visible to vitest.config.ts (vi.stubEnv, vi.stubGlobal) so the file runs isolated.`,
    );
  }
});
