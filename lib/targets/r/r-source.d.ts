declare module '*.R' {
  /** An R source file, embedded as text by the worker build (scripts/build-workers.mjs). */
  const source: string;
  export default source;
}
