/**
 * Whether code can contain an import statement. Both forms (`import x`, `from x import y`) have
 * the keyword as a word, so code without it imports nothing and the kernel skips asking the
 * worker's parser (a round trip of several milliseconds on every run). A false positive — the
 * word in a comment or a string — only costs that round trip.
 */
import 'client-only';
export function mayImport(code: string): boolean {
  return /\bimport\b/.test(code);
}
