'use client';

import { previewToText, sniffTable } from '@/lib/files/sniff.client';

const SNIFF_BYTES = 256 * 1024;

/**
 * The model's first look at a dataset, made in the browser: delimited and JSON text sniffed from
 * the file's first bytes; Parquet, Excel and Arrow IPC read by the kept readers (lib/files/formats, loaded on
 * first need), Parquet by ranges (its footer and first row group).
 */
export async function previewFile(file: File): Promise<string> {
  const where = `data/${file.name}`;
  if (/\.(parquet|xlsx|arrow|feather)$/i.test(file.name)) {
    const [{ tablePreviewOf, fileAsBuffer }, { FormatReadError, formatFailureText }, { tabularFormatOf }] = await Promise.all([
      import('@/lib/files/formats/preview.client'),
      import('@/lib/files/formats/table.client'),
      import('@/lib/files/formats/read-table.client'),
    ]);
    const format = tabularFormatOf(file.name) ?? 'parquet';
    try {
      return previewToText(where, file.size, await tablePreviewOf(format, fileAsBuffer(file)));
    } catch (error) {
      // A file the reader cannot read is still attached: the model is told why it is no table.
      if (error instanceof FormatReadError) return `${previewToText(where, file.size, null)}\nnote: ${formatFailureText(file.name, error)}`;
      throw error;
    }
  }
  const textual = /\.(csv|tsv|json|jsonl|ndjson|txt)$/i.test(file.name);
  if (!textual) return previewToText(where, file.size, null);
  const complete = file.size <= SNIFF_BYTES;
  const text = await file.slice(0, SNIFF_BYTES).text();
  return previewToText(where, file.size, sniffTable(text, { fileName: file.name, complete }));
}
