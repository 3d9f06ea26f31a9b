/** What the toy's page side and its worker say to each other (shared: no side's modules). */
import * as z from 'zod/mini';

export const toyReplySchema = z.object({ id: z.number(), text: z.string() });
export type ToyReply = z.infer<typeof toyReplySchema>;

/** The toy engine's one job: the text reversed, by code points. */
export function reversed(text: string): string {
  return [...text].reverse().join('');
}
