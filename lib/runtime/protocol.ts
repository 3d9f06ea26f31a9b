/**
 * The output protocol shared by the Python worker, the kernel, the UI, storage and the model
 * conversion. It follows Jupyter's output model (nbformat 4): a run yields `stream`,
 * `display_data`, `execute_result` and `error` outputs, then ends with a status.
 *
 * Everything that arrives from the worker is untrusted: it is parsed with these schemas, and
 * anything that does not match is dropped.
 */
import { z } from 'zod';
import { OUTPUT_CAPS } from './limits';
import type { DisplayMimeType } from './mime-types';
import { RESTARTED_WORDS, runFailureSchema } from './run-failure';

/** A table, in the Frictionless "data resource" shape that pandas' `to_json(orient="table")` uses. */
export const tableFieldSchema = z.object({
  name: z.string(),
  type: z.string(),
});
/** A cell is a JSON scalar: our Python side turns anything else into its str(). */
const tableCellSchema = z.union([z.string().max(OUTPUT_CAPS.textChars), z.number(), z.boolean(), z.null()]);
export const tableDataSchema = z.object({
  schema: z.object({
    fields: z.array(tableFieldSchema).max(OUTPUT_CAPS.tableColumns + 1),
    primaryKey: z.array(z.string()).max(OUTPUT_CAPS.tableColumns + 1).optional(),
  }),
  data: z.array(z.record(z.string(), tableCellSchema)).max(OUTPUT_CAPS.tableRows),
  /** Full shape before caps: [rows, columns]. */
  shape: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]).optional(),
});
export type TableData = z.infer<typeof tableDataSchema>;

/**
 * A stored image is a reference to a content-addressed blob: `blob:<sha256 hex>`. Otherwise an
 * image value is base64-encoded PNG bytes (as in nbformat).
 */
export const BLOB_REF_PATTERN = /^blob:[0-9a-f]{64}$/;
const base64OrBlobRef = z
  .string()
  .max(Math.ceil((OUTPUT_CAPS.imageBytes * 4) / 3) + 4)
  .refine((s) => BLOB_REF_PATTERN.test(s) || /^[A-Za-z0-9+/]*={0,2}$/.test(s), 'not base64 or a blob reference');

/** Vega-Lite MIME types (a JSON spec with inline data), rendered interactively in the page. */
export const VEGALITE_MIME_TYPES = ['application/vnd.vegalite.v5+json', 'application/vnd.vegalite.v6+json'] as const;
export type VegaLiteMimeType = (typeof VEGALITE_MIME_TYPES)[number];
/** Bytes of one Vega-Lite spec as JSON (its data is inline). lib/targets/python/engine/runpad/formatters.py mirrors it. */
export const VEGALITE_SPEC_MAX_BYTES = 5_000_000;
const vegaLiteSpecSchema = z
  .record(z.string(), z.unknown())
  .refine((spec) => jsonLength(spec) <= VEGALITE_SPEC_MAX_BYTES, `a Vega-Lite spec is at most ${VEGALITE_SPEC_MAX_BYTES.toLocaleString('en-US')} bytes of JSON`);

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? Infinity;
  } catch {
    return Infinity; // not serialisable (a cycle): refused as too large, never accepted unmeasured
  }
}

/** One validator per type of lib/runtime/mime-types.ts (`satisfies` keeps the two in step). */
const mimeBundleShape = {
  'text/plain': z.string().max(OUTPUT_CAPS.textChars).optional(),
  'text/markdown': z.string().max(OUTPUT_CAPS.textChars).optional(),
  'image/png': base64OrBlobRef.optional(),
  'image/jpeg': base64OrBlobRef.optional(),
  /** SVG text (Graphviz diagrams, sanitized); shown as an image, never inlined into the page. */
  'image/svg+xml': z.string().max(20_000_000).optional(),
  /** DOT source from Python; the page draws it with the Graphviz target (lib/targets/graphviz/dot-outputs.client.ts). */
  'text/vnd.graphviz': z.string().max(OUTPUT_CAPS.textChars).optional(),
  'application/vnd.dataresource+json': tableDataSchema.optional(),
  'application/vnd.vegalite.v5+json': vegaLiteSpecSchema.optional(),
  'application/vnd.vegalite.v6+json': vegaLiteSpecSchema.optional(),
} satisfies Record<DisplayMimeType, z.ZodType>;
export const mimeBundleSchema = z.object(mimeBundleShape);
export type MimeBundle = z.infer<typeof mimeBundleSchema>;

export const streamOutputSchema = z.object({
  output_type: z.literal('stream'),
  name: z.enum(['stdout', 'stderr']),
  text: z.string().max(OUTPUT_CAPS.streamChars + 1_000),
});
export const displayDataOutputSchema = z.object({
  output_type: z.literal('display_data'),
  data: mimeBundleSchema,
});
export const executeResultOutputSchema = z.object({
  output_type: z.literal('execute_result'),
  data: mimeBundleSchema,
});
export const errorOutputSchema = z.object({
  output_type: z.literal('error'),
  ename: z.string().max(1_000),
  evalue: z.string().max(OUTPUT_CAPS.textChars),
  traceback: z.array(z.string().max(OUTPUT_CAPS.textChars)).max(1_000),
});
/** A file the run wrote under /output/, stored as a blob (see lib/files). */
export const fileOutputSchema = z.object({
  output_type: z.literal('file'),
  name: z.string(),
  size: z.number().int().nonnegative(),
  mediaType: z.string(),
  /** `blob:<sha256>` once stored; absent while only the worker holds the bytes. */
  ref: z.string().regex(BLOB_REF_PATTERN).optional(),
});

export const outputSchema = z.discriminatedUnion('output_type', [
  streamOutputSchema,
  displayDataOutputSchema,
  executeResultOutputSchema,
  errorOutputSchema,
  fileOutputSchema,
]);
export type Output = z.infer<typeof outputSchema>;
export type StreamOutput = z.infer<typeof streamOutputSchema>;
export type ErrorOutput = z.infer<typeof errorOutputSchema>;

/** `page-closed`: the page that ran it was reloaded or closed before the run finished. */
export const runStatusSchema = z.enum(['ok', 'error', 'timeout', 'interrupted', 'crashed', 'page-closed']);
export type RunStatus = z.infer<typeof runStatusSchema>;

/** The result of one run: what the UI shows and what goes back to the model (the tool output). */
export const runResultSchema = z.object({
  status: runStatusSchema,
  outputs: z.array(outputSchema).max(OUTPUT_CAPS.outputsPerRun + 1),
  durationMs: z.number().nonnegative(),
  /**
   * How the run failed, beyond the code's own error (an `error` output): the time limit, a crash,
   * output cut by a cap… (lib/runtime/run-failure.ts). Worded for the cell by `failureForPerson`,
   * for the model by `failureForModel`.
   */
  failures: z.array(runFailureSchema).max(20).optional(),
  /** Free words a page adds to a result (a run that could not be saved); runs stored before `failures` carry theirs here. */
  notice: z.string().max(4_000).optional(),
  /** True when the interpreter that ran this was replaced: variables were lost. */
  restarted: z.boolean().optional(),
  /** Set when the user, not the model, ran this cell last: unchanged (rerun) or with their own code (edited). */
  userRun: z.enum(['rerun', 'edited']).optional(),
  /**
   * The interpreter this ran in did not hold the state of earlier runs of the conversation
   * (a new page, another device, a fork, a restart): how many earlier runs it lacked.
   */
  freshInterpreter: z.object({ missingRuns: z.number().int().nonnegative() }).optional(),
  /** Before this ran, earlier runs were replayed to restore the interpreter (not shown to the model). */
  restored: z.object({ runs: z.number().int().nonnegative(), failed: z.array(z.string().max(500)).max(50) }).optional(),
});
export type RunResult = z.infer<typeof runResultSchema>;

/** The input of the `python` tool. */
export const pythonToolInputSchema = z.object({
  code: z.string().describe('Python source to run in the user\'s browser.'),
});
export type PythonToolInput = z.infer<typeof pythonToolInputSchema>;

export const RESTARTED_NOTICE = RESTARTED_WORDS;
