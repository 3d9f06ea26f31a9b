/**
 * DuckDB inside the Python worker (ARCHITECTURE.md, "SQL is DuckDB"): DuckDB-wasm's blocking
 * bindings run on the worker's own thread, so Python calls them synchronously (`sql()` inside
 * Python code, SQL cells) with no bridge to another worker. Measured in bench/duckdb.mjs.
 *
 * - Files in /data are read by DuckDB in the ranges it asks for: the runtime's `readFile` copies
 *   the requested range into DuckDB's heap, from an uploaded file's bytes in Pyodide's in-memory
 *   file system, or from the disk for a file kept on the device (lib/files/device-mount.ts: its
 *   read-only access handle during a run, else FileReaderSync). Never a second copy of the whole file.
 * - A statement runs as a pending query polled in slices, so Python checks the interrupt flag
 *   between slices and Stop cancels the query, keeping both engines' state.
 * - Extensions (Parquet, JSON, Excel) are never fetched by DuckDB on its own (extension-settings.ts):
 *   `loadExtension` loads one with `LOAD` after its file was seen at the source (DuckDB's repository
 *   or the configured mirror), over a synchronous request lent only for that statement, refusing any
 *   other URL (the worker CSP is the boundary; this is defence in depth). A load that fails leaves an
 *   engine that answers, or the engine is started afresh: never a half-loaded one.
 */
import type { Table } from 'apache-arrow';
import { resultOf } from './result';
import { extensionAvailability, extensionSettings, READER_EXTENSIONS, type ExtensionAvailability } from './extension-settings';
import type * as OfflineTables from './offline-tables';
import type { TabularFormat } from '@/lib/files/formats/table.client';

/** The part of DuckDB-wasm's blocking bindings the bridge uses (its package exports no types for it). */
type DuckDBBindings = {
  instantiate(onProgress: (progress: unknown) => void): Promise<unknown>;
  open(config: { query?: { queryPollingInterval?: number; castDecimalToDouble?: boolean; castTimestampToDate?: boolean } }): void;
  getVersion(): string;
  connect(): { query(text: string): Table; useUnsafe<R>(callback: (bindings: unknown, conn: number) => R): R };
  startPendingQuery(conn: number, text: string, allowStreamResult: boolean): Uint8Array | null;
  pollPendingQuery(conn: number): Uint8Array | null;
  cancelPendingQuery(conn: number): boolean;
  fetchQueryResults(conn: number): Uint8Array | null;
  registerFileHandle(name: string, handle: unknown, protocol: number, directIO: boolean): void;
  registerFileBuffer(name: string, buffer: Uint8Array): void;
  insertArrowFromIPCStream(conn: number, buffer: Uint8Array, options: { name: string; create?: boolean }): void;
  dropFile(name: string): void;
};

/** What public/duckdb/<version>/duckdb-blocking.mjs exports (scripts/copy-duckdb.mjs). */
type DuckdbLibrary = {
  createDuckDB(
    bundles: { mvp: { mainModule: string; mainWorker: string }; eh: { mainModule: string; mainWorker: string } },
    logger: unknown,
    runtime: unknown,
  ): Promise<DuckDBBindings>;
  BROWSER_RUNTIME: BrowserRuntime;
  VoidLogger: new () => unknown;
  DuckDBDataProtocol: { BROWSER_FILEREADER: number };
  tableFromIPC(bytes: Uint8Array[]): Table;
};

type DuckdbModule = { HEAPU8: Uint8Array };
type BrowserRuntime = {
  readFile(mod: DuckdbModule, fileId: number, buffer: number, bytes: number, location: number): number;
  getFileInfo(mod: DuckdbModule, fileId: number): { fileName: string } | null;
};

/** A file as ranges: `readInto` fills `target` with the bytes at `position` (fewer at the end) and says how many. */
export type FileRanges = { size: number; readInto(target: Uint8Array, position: number): number };
/** How the bridge reads a file of the interpreter's file system without copying it whole. */
export type FileSource = (path: string) => FileRanges | null;

export type DuckdbOptions = {
  /** Absolute URL of public/duckdb/<version>/ (trailing slash). */
  assetUrl: string;
  /** Where extensions come from: DuckDB's repository or a mirror (no trailing slash). */
  extensionRepository: string;
  /** DuckDB's own memory limit (bytes), inside the interpreter's cap. */
  memoryLimitBytes: number;
  /** The XMLHttpRequest DuckDB loads extensions with (captured before the worker's lockdown). */
  xhr: typeof XMLHttpRequest | undefined;
  fileSource: FileSource;
  /**
   * Throws (as KeyboardInterrupt, in Python) when the page has asked to stop: Pyodide's
   * `checkInterrupt`, for JavaScript that Python is waiting on.
   */
  checkInterrupt: () => void;
};

/** The object Python holds (as `js` proxies): strings in, JSON strings out. */
export type DuckdbBridge = {
  version: string;
  extensionRepository: string;
  registerFile(path: string): boolean;
  dropFile(path: string): void;
  /** Starts a statement; the result JSON when it finished at once, else null (then poll). */
  start(sql: string): string | null;
  poll(): string | null;
  cancel(): boolean;
  /**
   * Loads DuckDB's extension `name` (parquet, json, excel) when its file is at the source: JSON of
   * `ExtensionAnswer`. Asked once per extension; a failure is kept.
   */
  loadExtension(name: string): Promise<string>;
  /**
   * Reads a Parquet, JSON or Excel file with the kept JavaScript readers into the table named by
   * its path (for when DuckDB's extension for the format cannot load): JSON of `ImportAnswer`.
   */
  importFile(path: string, format: string): Promise<string>;
};

/**
 * `restarted`: the failed load left the engine unable to answer and it was started afresh (every
 * table is gone: Python reloads the files).
 */
export type ExtensionAnswer = { loaded: boolean; reason: string | null; restarted: boolean };

const TABULAR_FORMATS: readonly string[] = ['parquet', 'json', 'jsonl', 'xlsx', 'arrow'] satisfies TabularFormat[];
/** How long the check for an extension's file may wait for the source to answer. */
const EXTENSION_CHECK_MS = 8_000;

/** The readers' bundle (public/workers/offline-tables.mjs), beside this worker's script: loaded on first need. */
let offlineTables: Promise<typeof OfflineTables> | null = null;
function loadOfflineTables(): Promise<typeof OfflineTables> {
  offlineTables ??= import(/* webpackIgnore: true */ new URL('offline-tables.mjs', self.location.href).href) as Promise<typeof OfflineTables>;
  return offlineTables;
}

const POLL_INTERVAL_MS = 40;

/** An XMLHttpRequest that opens only URLs under `prefix`. */
function guardedXhr(Base: typeof XMLHttpRequest, prefix: string): typeof XMLHttpRequest {
  return class GuardedXhr extends Base {
    override open(method: string, url: string | URL, ...rest: [boolean?, string?, string?]): void {
      const href = new URL(String(url), self.location.href).href;
      if (!href.startsWith(`${prefix}/`)) throw new TypeError('network is disabled in this sandbox');
      if (rest.length === 0) super.open(method, url, true);
      else super.open(method, url, rest[0] ?? true, rest[1], rest[2]);
    }
  };
}

type Connection = ReturnType<DuckDBBindings['connect']>;

/** The running engine: DuckDB-wasm with one connection, set up, and the interpreter's files registered in it. */
type DuckdbEngine = {
  lib: DuckdbLibrary;
  version: string;
  /** The interpreter's files registered (read through the runtime's `readFile`). */
  files: Set<string>;
  db: DuckDBBindings;
  conn: Connection;
  connId: number;
  /** A fresh engine with one connection, set up (after a load that broke it): its registered files are gone. */
  reopen(): Promise<void>;
};

/** DuckDB-wasm's start: the library loaded, its file reads routed to the interpreter's files, the engine opened and set up. */
async function openDuckdb(options: DuckdbOptions): Promise<DuckdbEngine> {
  const lib = (await import(/* webpackIgnore: true */ `${options.assetUrl}duckdb-blocking.mjs`)) as DuckdbLibrary;
  const runtime = lib.BROWSER_RUNTIME;
  const files = new Set<string>();
  const readFile = runtime.readFile.bind(runtime);
  // Files of the interpreter's file system: read the range asked for, straight from its bytes.
  runtime.readFile = (mod, fileId, buffer, bytes, location) => {
    const info = runtime.getFileInfo(mod, fileId);
    if (!info || !files.has(info.fileName)) return readFile(mod, fileId, buffer, bytes, location);
    const data = options.fileSource(info.fileName);
    if (!data || location >= data.size) return 0;
    // Straight into DuckDB's heap: a kept file's read-only handle reads the disk into it, no buffer between.
    return data.readInto(mod.HEAPU8.subarray(buffer, buffer + bytes), location);
  };
  const wasm = `${options.assetUrl}duckdb-eh.wasm`;
  const config = { query: { queryPollingInterval: POLL_INTERVAL_MS, castDecimalToDouble: true, castTimestampToDate: false } };
  const setup = [
    ...extensionSettings(options.extensionRepository),
    `SET memory_limit = '${Math.floor(options.memoryLimitBytes / 1024 ** 2)}MiB'`,
    'SET threads = 1',
  ];
  async function open() {
    const db = await lib.createDuckDB({ mvp: { mainModule: wasm, mainWorker: '' }, eh: { mainModule: wasm, mainWorker: '' } }, new lib.VoidLogger(), runtime);
    await db.instantiate(() => undefined);
    db.open(config);
    const conn = db.connect();
    for (const statement of setup) conn.query(statement);
    return { db, conn, connId: conn.useUnsafe((_bindings, id) => id) };
  }
  const engine: DuckdbEngine = {
    lib,
    version: '',
    files,
    ...(await open()),
    async reopen() {
      Object.assign(engine, await open());
      files.clear();
    },
  };
  engine.version = engine.db.getVersion();
  return engine;
}

/**
 * Loading the reader extensions: whether each one's file is at the source (asked at the start,
 * awaited on first need), `LOAD` over the guarded request lent for that statement, and a fresh
 * engine when a load left it not answering. Each extension is loaded once.
 */
function extensionLoader(engine: DuckdbEngine, options: DuckdbOptions): (name: string) => Promise<ExtensionAnswer> {
  // Whether each extension's file is at the source: asked now (the fetch is lent during the start), awaited on first need.
  const scope = globalThis as unknown as { fetch?: typeof fetch };
  const fetchFn = scope.fetch?.bind(globalThis);
  const availability = new Map<string, Promise<ExtensionAvailability>>(
    READER_EXTENSIONS.map((name) => [
      name,
      fetchFn ? extensionAvailability(fetchFn, options.extensionRepository, engine.version, name, EXTENSION_CHECK_MS) : Promise.resolve({ available: false, reason: 'the network is not available here' }),
    ]),
  );
  const loads = new Map<string, Promise<ExtensionAnswer>>();
  const Xhr = options.xhr ? guardedXhr(options.xhr, options.extensionRepository) : undefined;

  /** DuckDB fetches an extension during `LOAD`: lend the guarded request object meanwhile. */
  function withNetwork<T>(task: () => T): T {
    const global = globalThis as unknown as { XMLHttpRequest?: typeof XMLHttpRequest };
    if (!Xhr) return task();
    global.XMLHttpRequest = Xhr;
    try {
      return task();
    } finally {
      delete global.XMLHttpRequest;
    }
  }

  /** Whether the engine still answers (a trap inside a failed load can break its memory). */
  function answers(): boolean {
    try {
      return Number(resultOf(engine.conn.query('SELECT 42 AS answer')).rows[0]?.[0]) === 42;
    } catch {
      return false;
    }
  }

  async function loadExtension(name: string): Promise<ExtensionAnswer> {
    const found = await (availability.get(name) ?? Promise.resolve<ExtensionAvailability>({ available: false, reason: `${name} is not an extension Runpad loads` }));
    if (!found.available) return { loaded: false, reason: found.reason, restarted: false };
    let reason: string;
    try {
      withNetwork(() => engine.conn.query(`LOAD ${name}`));
      if (answers()) return { loaded: true, reason: null, restarted: false };
      reason = 'the engine stopped answering after loading it';
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
    if (answers()) return { loaded: false, reason, restarted: false };
    await engine.reopen();
    return { loaded: false, reason, restarted: true };
  }

  return (name) => {
    let load = loads.get(name);
    if (!load) {
      load = loadExtension(name);
      loads.set(name, load);
    }
    return load;
  };
}

/** The bridge's calls from Python: files registered, statements started and polled, extensions, the kept readers' imports. */
function bridgeOf(engine: DuckdbEngine, options: DuckdbOptions, loadExtension: (name: string) => Promise<ExtensionAnswer>): DuckdbBridge {
  const { lib, files } = engine;
  /** A finished query gives the Arrow stream's header; its record batches are fetched after it. */
  const finished = (header: Uint8Array | null): string | null => {
    if (!header) return null;
    const chunks = [header];
    for (let chunk = engine.db.fetchQueryResults(engine.connId); chunk && chunk.byteLength > 0; chunk = engine.db.fetchQueryResults(engine.connId)) chunks.push(chunk);
    return JSON.stringify(resultOf(lib.tableFromIPC(chunks)));
  };

  return {
    version: engine.version,
    extensionRepository: options.extensionRepository,
    registerFile(path) {
      const data = options.fileSource(path);
      if (!data) return false;
      if (files.has(path)) engine.db.dropFile(path);
      engine.db.registerFileHandle(path, { size: data.size }, lib.DuckDBDataProtocol.BROWSER_FILEREADER, true);
      files.add(path);
      return true;
    },
    dropFile(path) {
      if (!files.delete(path)) return;
      engine.db.dropFile(path);
    },
    start(sql) {
      return finished(engine.db.startPendingQuery(engine.connId, String(sql), false));
    },
    poll() {
      try {
        options.checkInterrupt();
      } catch (interrupt) {
        engine.db.cancelPendingQuery(engine.connId); // Stop or the time limit: the statement leaves nothing behind
        throw interrupt;
      }
      return finished(engine.db.pollPendingQuery(engine.connId));
    },
    cancel() {
      return engine.db.cancelPendingQuery(engine.connId);
    },
    async loadExtension(name) {
      return JSON.stringify(await loadExtension(String(name)));
    },
    async importFile(path, format) {
      const name = String(path);
      const kind = String(format);
      if (!TABULAR_FORMATS.includes(kind)) throw new TypeError(`no kept reader for format ${kind}`);
      const data = options.fileSource(name);
      if (!data) throw new TypeError(`${name} is not a file of the interpreter`);
      const readers = await loadOfflineTables();
      const target = {
        query: (statement: string) => void engine.conn.query(statement),
        registerBuffer: (buffer: string, bytes: Uint8Array) => engine.db.registerFileBuffer(buffer, bytes),
        dropBuffer: (buffer: string) => engine.db.dropFile(buffer),
        insertArrow: (table: string, stream: Uint8Array, create = true) => engine.db.insertArrowFromIPCStream(engine.connId, stream, { name: table, create }),
      };
      // The kept readers ask for byte ranges: read from the interpreter's memory for an upload, from the disk for a file kept on the device.
      const file = {
        byteLength: data.size,
        slice: (start: number, end?: number) => {
          const bytes = new Uint8Array(Math.max(0, Math.min(end ?? data.size, data.size) - start));
          return bytes.buffer.slice(0, data.readInto(bytes, start));
        },
      };
      return JSON.stringify(await readers.importTable(target, name, kind as TabularFormat, file));
    },
  };
}

/** DuckDB started in this worker (its library, engine and reader extensions' sources) and the bridge Python calls. */
export async function startDuckdb(options: DuckdbOptions): Promise<DuckdbBridge> {
  const engine = await openDuckdb(options);
  return bridgeOf(engine, options, extensionLoader(engine, options));
}
