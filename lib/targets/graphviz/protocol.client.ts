/**
 * Messages between the page and the Graphviz worker (lib/targets/graphviz/engine/graphviz.worker.ts), and the limits
 * both sides enforce. The page creates the worker, then hands it a private MessagePort with one
 * `connect` message on the worker's global scope; everything after that travels on the port.
 *
 * Each side parses what it receives with these schemas: the worker renders model-written DOT, so
 * the page treats its replies as untrusted. This module imports only zod, so the page can use it
 * without pulling Graphviz into its bundle.
 */
import 'client-only';
import { z } from 'zod';
import { runFailureSchema } from '@/lib/runtime/run-failure';

export const GRAPHVIZ_LIMITS = {
  /** Longer DOT is refused before Graphviz sees it. */
  maxDotChars: 200_000,
  /** Longer SVG is refused by the renderer and by reply parsing (a huge image is unusable anyway). */
  maxSvgChars: 20_000_000,
  maxMessageChars: 4_000,
} as const;

/** The only message the worker accepts on its global scope; `port` must be in the transfer list. */
export const connectMessageSchema = z.object({
  type: z.literal('connect'),
  // Checked by a guard rather than z.instanceof so that importing this module never touches MessagePort.
  port: z.custom<MessagePort>((value) => typeof MessagePort !== 'undefined' && value instanceof MessagePort, 'not a MessagePort'),
});
export type ConnectMessage = z.infer<typeof connectMessageSchema>;

export const renderRequestSchema = z.object({
  type: z.literal('render'),
  id: z.int(),
  dot: z.string(),
});
export type RenderRequest = z.infer<typeof renderRequestSchema>;

export const renderedOkSchema = z.object({
  type: z.literal('rendered'),
  id: z.int(),
  ok: z.literal(true),
  svg: z.string().max(GRAPHVIZ_LIMITS.maxSvgChars),
  /** CSS pixels. */
  width: z.number().positive().finite(),
  height: z.number().positive().finite(),
});

export const renderedErrorSchema = z.object({
  type: z.literal('rendered'),
  id: z.int(),
  ok: z.literal(false),
  /** Why not (lib/runtime/run-failure.ts): DOT Graphviz refuses is the code's own error, with its line. */
  failure: runFailureSchema,
});

export const renderedSchema = z.discriminatedUnion('ok', [renderedOkSchema, renderedErrorSchema]);
export type Rendered = z.infer<typeof renderedSchema>;

/** Posted on the port once Graphviz's wasm is instantiated and the worker has dropped its network APIs. */
export const readySchema = z.object({ type: z.literal('ready') });

/** Posted on the port instead of `ready` when Graphviz could not start; the worker answers nothing after it. */
export const failedSchema = z.object({ type: z.literal('failed'), failure: runFailureSchema });

export const workerReplySchema = z.union([readySchema, failedSchema, renderedSchema]);
export type WorkerReply = z.infer<typeof workerReplySchema>;
