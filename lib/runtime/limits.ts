/**
 * Every cap and limit of a run, in one place. The worker passes `OUTPUT_CAPS` to the Python
 * package at start-up; the README's "Limits" table documents these values.
 */
export const OUTPUT_CAPS = {
  /** stdout+stderr characters kept per run; beyond this the middle is elided with a marker. */
  streamChars: 1_000_000,
  /** Images kept per run; later ones are dropped with a notice. */
  imagesPerRun: 20,
  /** Bytes of one PNG; a larger image is dropped with a notice. */
  imageBytes: 5_000_000,
  /** Table rows kept in a table output; the full shape is still reported. */
  tableRows: 1_000,
  /** Table columns kept in a table output. */
  tableColumns: 200,
  /** Characters of one text/plain or text/markdown value. */
  textChars: 200_000,
  /**
   * Outputs kept per run (consecutive prints of one stream count as one). Each is a rendered
   * element; 8,000 `display()` calls froze the page before this cap existed.
   */
  outputsPerRun: 500,
  /** Bytes of all outputs of one run together, as JSON. */
  runBytes: 48_000_000,
} as const;

export type OutputCaps = { readonly [K in keyof typeof OUTPUT_CAPS]: number };

export const RUN_LIMITS = {
  /** Default wall-clock limit of one run. */
  defaultTimeoutMs: 30_000,
  /** Largest limit a user may choose in settings. */
  maxTimeoutMs: 300_000,
  /**
   * After the interrupt flag is set, how long the worker has to come back before it is killed.
   * Python code stops within milliseconds; what is still running after a second is C code that
   * ignores the flag, and a spare interpreter is ready by then (lib/targets/python/kernel.client.ts).
   */
  interruptGraceMs: 1_000,
  /**
   * How much of the time since the interrupt the page must have been run on schedule (its timer
   * firing on time: lib/runtime/on-schedule-clock.ts) before a flag Python has not taken is C code
   * that ignores it, and its worker is killed at the end of the grace. A pure Python loop takes the
   * flag within milliseconds of its thread running (4 ms measured); on a busy machine its thread
   * may not run for more than the grace (seen once in a clean test run: a `while True: pass`
   * killed, its variables lost, 1.7 s after the limit), and time in which the page was not run
   * either does not count.
   */
  interruptTakeOnScheduleMs: 500,
  /**
   * The longest Python may take to take the interrupt flag at all, on the wall, however little of
   * that time the page was run: a flag not taken by then is C code, and its worker is killed.
   */
  interruptTakeMs: 3_000,
  /**
   * How long an interrupt Python has taken (it clears the flag when it raises KeyboardInterrupt)
   * may take to unwind before the worker is killed anyway: the traceback and the result still have
   * to reach the page, which on a loaded machine can take longer than the grace.
   */
  interruptUnwindMs: 10_000,
  /** wasm heap size past which the run is stopped and the worker replaced. */
  maxHeapBytes: 1.5 * 1024 ** 3,
  /** How long starting an interpreter may take before it is reported as failed. */
  startTimeoutMs: 120_000,
} as const;

/** What the model receives of a run (lib/ai/run-to-model.server.ts). */
export const MODEL_VIEW_CAPS = {
  streamHeadChars: 4_000,
  streamTailChars: 2_000,
  tableRows: 10,
  tracebackFrames: 4,
  imagesPerRun: 4,
} as const;

export const TURN_LIMITS = {
  /** Code runs the model may make in one turn before it is stopped. */
  defaultStepBudget: 8,
  maxStepBudget: 32,
} as const;
