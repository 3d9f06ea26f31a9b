/**
 * Messages between the page and the JavaScript worker (lib/targets/javascript/engine/javascript.worker.ts). The page
 * makes one worker per run and hands it a private MessagePort with one `connect` message; the run
 * request and every reply travel on the port. Each side parses what it receives: the worker runs
 * model-written code, so its replies are untrusted. Imports only zod and the run failure union.
 */
import 'client-only';
import { z } from 'zod';
import { OUTPUT_CAPS } from '@/lib/runtime/limits';

/** The only message the worker accepts on its global scope; `port` must be in the transfer list. */
export const connectMessageSchema = z.object({
  type: z.literal('connect'),
  // A guard rather than z.instanceof, so that importing this module never touches MessagePort.
  port: z.custom<MessagePort>((value) => typeof MessagePort !== 'undefined' && value instanceof MessagePort, 'not a MessagePort'),
});

export const runRequestSchema = z.object({ type: z.literal('run'), code: z.string() });
export type RunRequest = z.infer<typeof runRequestSchema>;

/** Text printed by `console` while the code runs (one call's line). */
export const printedSchema = z.object({ type: z.literal('printed'), name: z.enum(['stdout', 'stderr']), text: z.string().max(OUTPUT_CAPS.streamChars) });

/** The code finished: the last expression's value as text (absent when it was `undefined`). */
export const finishedSchema = z.object({ type: z.literal('finished'), value: z.string().max(OUTPUT_CAPS.textChars).optional() });

/** The code threw: the error's name, message and the 1-based line of the code it names, when known. */
export const threwSchema = z.object({
  type: z.literal('threw'),
  name: z.string().min(1).max(200),
  message: z.string().max(4_000),
  line: z.int().positive().optional(),
});

export const replySchema = z.discriminatedUnion('type', [printedSchema, finishedSchema, threwSchema]);
export type Reply = z.infer<typeof replySchema>;
