import type { z } from 'zod';
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
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    return { ok: false, response: jsonError(400, `Invalid request${where}: ${issue?.message ?? 'unexpected shape'}.`) };
  }
  return { ok: true, value: parsed.data };
}

function tooLarge(maxBytes: number): Response {
  return jsonError(413, `The request body is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
}
