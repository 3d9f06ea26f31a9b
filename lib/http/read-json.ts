import type { z } from 'zod';
import { formatBytes } from '@/lib/format';
import { jsonError } from './errors';

/** Request bodies larger than this are refused with 413 (documented in the README). */
export const MAX_JSON_BODY_BYTES = 8 * 1024 * 1024;

type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

/**
 * Reads a JSON body with a size cap and validates it. Streams the body so a liar's
 * Content-Length cannot make us buffer more than the cap.
 */
export async function readJson<T>(request: Request, schema: z.ZodType<T>, maxBytes = MAX_JSON_BODY_BYTES): Promise<Parsed<T>> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return { ok: false, response: tooLarge(maxBytes) };
  const reader = request.body?.getReader();
  if (!reader) return { ok: false, response: jsonError(400, 'The request has no body.') };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return { ok: false, response: tooLarge(maxBytes) };
    }
    chunks.push(value);
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return { ok: false, response: jsonError(400, 'The request body is not valid JSON.') };
  }
  if (nestingDepth(json) > MAX_JSON_DEPTH) {
    return { ok: false, response: jsonError(400, `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`) };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    return { ok: false, response: jsonError(400, `Invalid request${where}: ${issue?.message ?? 'unexpected shape'}.`) };
  }
  return { ok: true, value: parsed.data };
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

function tooLarge(maxBytes: number): Response {
  return jsonError(413, `The request body is larger than the ${formatBytes(maxBytes)} this request accepts.`);
}
