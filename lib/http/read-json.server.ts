import 'server-only';
import type { z } from 'zod';
import { AppError } from '@/lib/errors.server';
import { formatBytes } from '@/lib/format';

/** Request bodies larger than this are refused with 413 (documented in the README). */
export const MAX_JSON_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Reads a JSON body with a size cap and validates it; a body that is too large, not JSON or not
 * of the schema's shape throws the AppError that refuses it in words (413 or 400). Streams the
 * body so a liar's Content-Length cannot make us buffer more than the cap.
 */
export async function readJson<T>(request: Request, schema: z.ZodType<T>, maxBytes = MAX_JSON_BODY_BYTES): Promise<T> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes, `declared ${declared} bytes`);
  const reader = request.body?.getReader();
  if (!reader) throw invalid('The request has no body.', 'no body');
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes, `more than ${maxBytes} bytes sent`);
    }
    chunks.push(value);
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw invalid('The request body is not valid JSON.', 'body not JSON');
  }
  if (nestingDepth(json) > MAX_JSON_DEPTH) {
    throw invalid(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`, 'body nested too deep');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw invalid(`Invalid request${where}: ${issue?.message ?? 'unexpected shape'}.`, `body refused by its schema${where}`);
  }
  return parsed.data;
}

/**
 * No request we accept nests deeper than this; a deeper value (50,000 levels arrived in a forged
 * table) would later overflow the stack of every recursive walk over it, JSON.stringify included.
 */
export const MAX_JSON_DEPTH = 64;

/** Depth of a parsed JSON value, walked without recursion; stops counting past the limit. */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function tooLarge(maxBytes: number, reason: string): AppError {
  return new AppError('request:too_large', { message: `The request body is larger than the ${formatBytes(maxBytes)} this request accepts.`, reason });
}

function invalid(message: string, reason: string): AppError {
  return new AppError('request:invalid', { message, reason });
}
