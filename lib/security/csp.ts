/**
 * Content-Security-Policies. The worker policy is the sandbox boundary (ARCHITECTURE.md, "Sandbox"):
 * code in the worker may fetch only Pyodide's own files and the package source, by path — never
 * the app's API, which would answer with the user's cookies — and may load scripts only from
 * Pyodide's directory and the workers' own (so not `import('/api/…')` either).
 */
export function workerCsp(
  origin: string | null,
  pyodideIndexPath: string,
  packageBaseUrl: string,
  duckdb: { assetPath: string; extensionUrl: string } = { assetPath: '', extensionUrl: '' },
): string {
  if (!origin) return ["default-src 'none'", "script-src 'wasm-unsafe-eval'"].join('; ');
  const packageSource = new URL(packageBaseUrl, origin).href;
  // DuckDB: its module and engine from its own versioned directory, extensions from exactly the
  // configured source (a path-limited prefix, so a mirror on this origin exposes nothing else).
  const duckdbAssets = duckdb.assetPath ? ` ${origin}${duckdb.assetPath}` : '';
  const extensions = duckdb.extensionUrl ? ` ${new URL(`${duckdb.extensionUrl}/`, origin).href}` : '';
  return [
    "default-src 'none'",
    `script-src ${origin}${pyodideIndexPath} ${origin}/workers/${duckdbAssets} 'wasm-unsafe-eval'`,
    `connect-src ${origin}${pyodideIndexPath} ${packageSource}${duckdbAssets}${extensions}`,
  ].join('; ');
}

/**
 * The R worker's policy (lib/targets/r/engine/r.worker.ts): it loads nothing itself but starts webR's worker
 * from webR's directory (worker-src falls back to script-src), and fetches only the R package
 * repository (it asks once whether the repository answers).
 */
export function rWorkerCsp(origin: string | null, webrBasePath: string, rPackageRepoUrl: string): string {
  if (!origin) return ["default-src 'none'", "script-src 'wasm-unsafe-eval'"].join('; ');
  const repository = new URL(rPackageRepoUrl, origin).href;
  return ["default-src 'none'", `script-src ${origin}/workers/ ${origin}${webrBasePath} 'wasm-unsafe-eval'`, `connect-src ${repository}`].join('; ');
}

/**
 * webR's own worker (`webr-worker.js`), where R code runs: scripts and files only from webR's
 * directory, and the network only to the R package repository (by path when it is a mirror on this
 * origin) — never the app's API. It needs 'unsafe-eval': Emscripten's dynamic linker evals the
 * EM_ASM code of R's BLAS/LAPACK side modules (without it R's start hangs), and webR lets R run
 * JavaScript in its worker by design (webr::eval_js). The boundary is this worker's network, not
 * which code runs in it.
 */
export function webrWorkerCsp(origin: string | null, webrBasePath: string, rPackageRepoUrl: string): string {
  if (!origin) return ["default-src 'none'", "script-src 'wasm-unsafe-eval'"].join('; ');
  const repository = new URL(rPackageRepoUrl, origin).href;
  return [
    "default-src 'none'",
    `script-src ${origin}${webrBasePath} 'wasm-unsafe-eval' 'unsafe-eval'`,
    `connect-src ${origin}${webrBasePath} ${repository}`,
  ].join('; ');
}

/**
 * The page policy: scripts only with this request's nonce (Next adds it to its own scripts),
 * images only from the app itself, data: and blob: — so markdown from the model or from Python
 * cannot make the browser fetch an attacker's URL.
 */
export function pageCsp(nonce: string, isDev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic' 'wasm-unsafe-eval'${isDev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export type WorkerCspSettings = { pyodideIndexPath: string; packageBaseUrl: string; duckdbAssetPath: string; duckdbExtensionUrl: string; webrBasePath: string; rPackageRepoUrl: string };

/**
 * A worker script and the policy it is served with. Each target declares its own in its
 * definition (lib/targets/target.ts, `workers`); the page's other workers are PAGE_WORKERS below.
 */
export type DeclaredWorker = {
  /** The script's path as requested, e.g. `/workers/graphviz.worker.mjs`. */
  script: (settings: WorkerCspSettings) => string;
  csp: (origin: string | null, settings: WorkerCspSettings) => string;
};

/** The Python worker (Python and SQL run in it): Pyodide, the package source, DuckDB. */
export const pythonWorker: DeclaredWorker = {
  script: () => '/workers/python.worker.mjs',
  csp: (origin, settings) => workerCsp(origin, settings.pyodideIndexPath, settings.packageBaseUrl, { assetPath: settings.duckdbAssetPath, extensionUrl: settings.duckdbExtensionUrl }),
};

/** Nothing at all: a worker that loads and fetches nothing (its own script is the page's to allow). */
export function closedWorkerCsp(): string {
  return "default-src 'none'";
}

/** A worker that fetches and loads nothing but compiles the wasm its bundle embeds (Graphviz). */
export function wasmOnlyWorkerCsp(): string {
  return ["default-src 'none'", "script-src 'wasm-unsafe-eval'"].join('; ');
}

/**
 * The page's workers that belong to no target: the dataset hasher reads Blobs and fetches nothing;
 * the keeper copies a file into the device's storage, hashing it with the wasm its bundle embeds.
 */
export const PAGE_WORKERS: readonly DeclaredWorker[] = [
  { script: () => '/workers/dataset-hash.worker.mjs', csp: closedWorkerCsp },
  { script: () => '/workers/device-keep.worker.mjs', csp: wasmOnlyWorkerCsp },
  // Reads a dropped file ahead of the engine reading it in place (lib/files/blob-prefetch.client.ts).
  { script: () => '/workers/blob-prefetch.worker.mjs', csp: closedWorkerCsp },
];

/**
 * The policy a worker script is served with: the one its declaration gives (the targets' and the
 * page's own), or null for any other path. A worker no one declared gets none; a unit test
 * (csp.test.ts) fails for any worker script without one.
 */
export function workerScriptCsp(pathname: string, origin: string | null, settings: WorkerCspSettings, targetWorkers: readonly DeclaredWorker[]): string | null {
  const declared = [...targetWorkers, ...PAGE_WORKERS].find((worker) => worker.script(settings) === pathname);
  return declared ? declared.csp(origin, settings) : null;
}
