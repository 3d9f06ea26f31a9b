/**
 * Messages between the page and the R worker (lib/targets/r/engine/r.worker.ts). The page creates the worker,
 * then hands it a private MessagePort with one `connect` message (carrying where webR's files and
 * the package repository are); everything after that travels on the port. Each side parses what it
 * receives with these schemas; the page treats every reply as untrusted (R code can post too).
 * Imports only zod and the output protocol, so the page can use it without pulling in webR.
 */
import 'client-only';
import { z } from 'zod';
import { DROP_ID } from '@/lib/files/data-file';
import { outputSchema } from '@/lib/runtime/protocol';
import { OUTPUT_CAPS } from '@/lib/runtime/limits';
import { runFailureSchema } from '@/lib/runtime/run-failure';

export const R_LIMITS = {
  /** R's vector heap limit (mem.maxVSize): past it an allocation fails with R's own error, and state is kept. */
  vectorHeapMb: 1_024,
  /** Plots are drawn at this size (pixels at 96 dpi). */
  plotWidth: 720,
  plotHeight: 480,
  /**
   * After an interrupt, how long R has to stop before its worker is replaced, counted in time the
   * page was run on schedule (lib/runtime/on-schedule-clock.ts). R checks between steps of a loop.
   */
  interruptGraceMs: 2_000,
  /** The longest R may take to stop on the wall, however little of that time the page was run: then its worker is replaced. */
  interruptGraceWallMs: 6_000,
  maxMessageChars: 4_000,
} as const;

export const connectMessageSchema = z.object({
  type: z.literal('connect'),
  // A guard rather than z.instanceof, so importing this module never touches MessagePort.
  port: z.custom<MessagePort>((value) => typeof MessagePort !== 'undefined' && value instanceof MessagePort, 'not a MessagePort'),
  /** Where webR's files are served, e.g. `/webr/0.6.0/` (same origin). */
  baseUrl: z.string().regex(/^\/webr\/[0-9A-Za-z.+-]+\/$/),
  /** Where R packages beyond the base library come from. */
  repoUrl: z.url(),
});
export type ConnectMessage = z.infer<typeof connectMessageSchema>;

export const requestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run'), id: z.int(), code: z.string() }),
  z.object({ type: z.literal('write-file'), id: z.int(), path: z.string().regex(/^\/data\/[^/]+$/), bytes: z.instanceof(Uint8Array) }),
  z.object({ type: z.literal('read-file'), id: z.int(), path: z.string().regex(/^\/output\/[^\0]+$/) }),
  /** A file kept on the device (or just dropped), mounted read-only where it lies and linked at /data/<name> (lib/files/device-mount.ts). */
  z.object({
    type: z.literal('mount-file'),
    id: z.int(),
    name: z.string().min(1).max(255).regex(/^[^/\0]+$/).refine((name) => name !== '.' && name !== '..'),
    /** Its SHA-256; a dropped file not kept yet: its drop id (lib/files/data-file.ts), read from the dropped File. */
    sha256: z.union([z.string().regex(/^[0-9a-f]{64}$/), z.string().regex(DROP_ID)]),
    // A guard rather than z.instanceof, so importing this module never touches Blob where there is none.
    file: z.custom<Blob>((value) => typeof Blob !== 'undefined' && value instanceof Blob, 'not a Blob'),
  }),
  z.object({ type: z.literal('interrupt') }),
]);
export type Request = z.infer<typeof requestSchema>;
/** A request as the page sends it (a Uint8Array of any buffer). */
export type RequestIn = z.input<typeof requestSchema>;


export const replySchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('ready'),
    version: z.string().max(100),
    /** Whether the R package repository answered the worker's one probe while R started. */
    packages: z.enum(['reachable', 'unreachable']),
  }),
  /** Instead of `ready`: why R could not start. */
  z.object({ type: z.literal('failed'), failure: runFailureSchema }),
  z.object({
    type: z.literal('ran'),
    id: z.int(),
    status: z.enum(['ok', 'error', 'interrupted']),
    outputs: z.array(z.unknown()).max(OUTPUT_CAPS.outputsPerRun * 4),
    /** Events from R that did not match what capture.R produces. */
    dropped: z.int().nonnegative(),
  }),
  z.object({ type: z.literal('file'), id: z.int(), bytes: z.instanceof(Uint8Array) }),
  z.object({ type: z.literal('done'), id: z.int() }),
  /** A request the worker could not carry out, and why (lib/runtime/run-failure.ts). */
  z.object({ type: z.literal('request-failed'), id: z.int(), failure: runFailureSchema }),
]);
export type Reply = z.infer<typeof replySchema>;

export { outputSchema };
