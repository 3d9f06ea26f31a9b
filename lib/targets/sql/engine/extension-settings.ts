/**
 * How DuckDB is told where its extensions come from (DuckDB's repository or a mirror), and which
 * of them it may load: the statements the bridge runs at start, and the check it makes before it
 * lets DuckDB ask for one. Pure but for the `fetch` it is given, so the mirror's tests run the
 * very same statements in DuckDB-wasm under Node and see which URLs the engine asks a mirror for.
 *
 * DuckDB never fetches an extension on its own (autoloading and autoinstalling are off): a fetch
 * that fails inside the engine can leave it half-loaded (its functions registered, their code
 * missing) and every later statement traps. The bridge loads an extension with `LOAD` only after
 * `extensionAvailability` saw the file is there and is WebAssembly; otherwise the kept readers
 * (offline-tables.ts) read the format.
 */
import { duckdbExtensionUrl } from '@/lib/package-sources/layout.mjs';

/** The extensions of the formats Runpad reads (lib/targets/python/engine/runpad/sql_engine.py, EXTENSION_OF). */
export const READER_EXTENSIONS = ['parquet', 'json', 'excel'] as const;
export type ReaderExtension = (typeof READER_EXTENSIONS)[number];

/** The engine's platform (the exception-handling build the bridge starts). */
export const DUCKDB_PLATFORM = 'wasm_eh';

export function extensionSettings(repository: string): string[] {
  return [
    `SET custom_extension_repository = '${repository.replaceAll("'", "''")}'`,
    'SET autoinstall_known_extensions = false',
    'SET autoload_known_extensions = false',
  ];
}

export type ExtensionAvailability = { available: true } | { available: false; reason: string };

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

/**
 * Whether `name` can be fetched from `repository` for this engine: the file answers and begins as
 * WebAssembly does. Reads the first bytes only; `timeoutMs` bounds a network that never answers.
 */
export async function extensionAvailability(
  fetchFn: typeof fetch,
  repository: string,
  version: string,
  name: string,
  timeoutMs: number,
): Promise<ExtensionAvailability> {
  const url = duckdbExtensionUrl(repository, version, DUCKDB_PLATFORM, name);
  try {
    const response = await fetchFn(url, { headers: { Range: 'bytes=0-7' }, signal: AbortSignal.timeout(timeoutMs), cache: 'no-store' });
    if (!response.ok) {
      await response.body?.cancel();
      return { available: false, reason: `${url} answered ${response.status}` };
    }
    const reader = response.body?.getReader();
    const head: number[] = [];
    while (reader && head.length < WASM_MAGIC.length) {
      const { done, value } = await reader.read();
      if (done) break;
      head.push(...value.subarray(0, WASM_MAGIC.length - head.length));
    }
    await reader?.cancel();
    if (!WASM_MAGIC.every((byte, i) => head[i] === byte)) return { available: false, reason: `${url} is not a DuckDB extension (not WebAssembly)` };
    return { available: true };
  } catch (error) {
    return { available: false, reason: `${url} could not be fetched (${error instanceof Error ? error.message : String(error)})` };
  }
}
