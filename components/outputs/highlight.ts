/**
 * What the traced-figure reveal marks in an output (components/outputs/trace-reveal.tsx): a span of
 * printed text, or one table cell. Its own module, so the list of outputs and each renderer import
 * it without importing each other.
 */
export type TextHighlight = { start: number; end: number; seq: number };
export type CellHighlight = { row: number; column: string; seq: number };
