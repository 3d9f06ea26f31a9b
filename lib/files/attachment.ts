import { z } from 'zod';

/** A file attached to a user message (message metadata), as stored on the server. */
export const attachmentSchema = z.object({
  name: z.string().max(200),
  size: z.number().int().nonnegative(),
  mediaType: z.string().max(200),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Where the bytes are (lib/files/data-file.ts); absent on attachments stored before files could stay on a device: uploaded. */
  location: z.enum(['account', 'device']).optional(),
  /** What the browser sniffed: columns, types, first rows (compact text for the model). */
  preview: z.string().max(8_000).optional(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const messageMetadataSchema = z.object({ files: z.array(attachmentSchema).max(50).optional() }).passthrough();

export function attachmentsOf(metadata: unknown): Attachment[] {
  const parsed = messageMetadataSchema.safeParse(metadata);
  return parsed.success ? (parsed.data.files ?? []) : [];
}

/** What the model is told, with the user's message, about the files that came with it. */
export function attachmentsToText(files: Attachment[]): string {
  const lines = ['[Files attached to this message, available to Python under /data/:]'];
  for (const file of files) lines.push(file.preview ?? `/data/${file.name} (${file.size.toLocaleString('en-US')} bytes, ${file.mediaType})`);
  return lines.join('\n');
}
