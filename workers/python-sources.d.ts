declare module 'virtual:python-sources' {
  /** Path (relative to workers/python/) → source of every .py file, embedded at build time. */
  const files: Record<string, string>;
  export default files;
  /** The memory snapshot scripts/build-snapshot.mjs built from these sources, under Pyodide's directory. */
  export const snapshotFileName: string;
}
