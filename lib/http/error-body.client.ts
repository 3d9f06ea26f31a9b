/**
 * The JSON body of a refusal or failure (lib/errors.server.ts `AppError.body()`, or a model failure in a
 * stream, lib/ai/model-errors.server.ts), as the browser reads it: parsed, never cast.
 */
import 'client-only';
import { z } from 'zod';

export const errorBodySchema = z.looseObject({
  error: z.string(),
  code: z.string().optional(),
  cause: z.string().optional(),
  retryable: z.boolean().optional(),
  retryAfterSeconds: z.number().nonnegative().optional(),
});
export type ParsedErrorBody = z.infer<typeof errorBodySchema>;

/** The body's words and hints, or null when the text is not such a body. */
export function parseErrorBody(text: string): ParsedErrorBody | null {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // not JSON: the caller words the failure itself
  }
}

/** A response's body through a schema; null (never a throw) when it is not what was expected. */
export async function readJsonAs<T>(response: Response, schema: z.ZodType<T>): Promise<T | null> {
  // A body that is not JSON is just another body that is not what was expected: the caller words it.
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  return parsed.success ? parsed.data : null;
}

/**
 * What to tell the person about a request that failed: the server's own words when it answered
 * with an error body (a quota, a database that is down, a refusal), else `fallback`. `response`
 * is null when the request got no answer at all.
 */
export async function failureWords(response: Response | null, fallback: string): Promise<string> {
  if (!response) return fallback;
  return (await readJsonAs(response, errorBodySchema))?.error ?? fallback;
}
