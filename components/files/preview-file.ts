'use client';

import { previewToText, sniffTable } from '@/lib/files/sniff';

const SNIFF_BYTES = 256 * 1024;

/** The model's first look at a dataset: sniffed in the browser from the file's first bytes. */
export async function previewFile(file: File): Promise<string> {
  const textual = /\.(csv|tsv|json|jsonl|ndjson|txt)$/i.test(file.name);
  if (!textual) return previewToText(`data/${file.name}`, file.size, null);
  const complete = file.size <= SNIFF_BYTES;
  const text = await file.slice(0, SNIFF_BYTES).text();
  return previewToText(`data/${file.name}`, file.size, sniffTable(text, { fileName: file.name, complete }));
}
