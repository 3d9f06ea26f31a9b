declare module 'virtual:python-sources' {
  /** Path (relative to lib/targets/python/engine/) → source of every .py file, embedded at build time. */
  const files: Record<string, string>;
  export default files;
  /** The memory snapshot scripts/build-snapshot.mjs built from these sources, under Pyodide's directory. */
  export const snapshotFileName: string;
  /** How the interpreter starts (scripts/python-sources.mjs): its environment, package root and preload. */
  export const pythonStart: { packageRoot: string; env: Record<string, string>; preload: string };
}
