/**
 * A promise that rejects with no one to handle it is logged through the app's log (its error by
 * what names it, lib/log/serialize-error.server.ts), never printed whole. Next's own listener
 * prints the reason with every property it carries: a model provider's failed stream (the AI SDK
 * lets a dropped answer's error escape this way) carries the whole request body, the conversation.
 * Next keeps its listener on globalThis under a well-known symbol and registers whatever it finds
 * there, so putting ours in its place replaces it now and whenever Next registers again.
 */
import 'server-only';
import { logger } from './logger.server';

const NEXT_LISTENER = Symbol.for('next.unhandledRejectionListener');

export function logUnhandledRejection(reason: unknown): void {
  logger().error({ err: reason }, 'unhandled rejection');
}

export function installRejectionLog(): void {
  const slots = globalThis as unknown as Record<symbol, unknown>;
  const previous = slots[NEXT_LISTENER];
  if (typeof previous === 'function' && previous !== logUnhandledRejection) process.off('unhandledRejection', previous as (reason: unknown) => void);
  slots[NEXT_LISTENER] = logUnhandledRejection;
  if (!process.listeners('unhandledRejection').includes(logUnhandledRejection)) process.on('unhandledRejection', logUnhandledRejection);
}
