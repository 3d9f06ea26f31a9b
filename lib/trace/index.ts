/**
 * Traced numbers (ARCHITECTURE.md, "Traced numbers"): every figure of an answer's prose matched to
 * the run output that shows it, or marked as found in none. Pure: the page, the share page and the
 * notebook export compute the same traces from the same stored messages.
 */
export { traceConversation, traceFigures, matchKind, type AnswerTrace, type FigureTrace, type TraceSource, type MatchKind } from './match';
export { proseFigures, findFigures, notAFigure, type Figure } from './prose';
export { runSourceOf, type SourceLocation, type SourceNumber, type TraceMessage, type RunSource } from './sources';
export { describeSource, describeTrace, summaryLine, untracedFigures, checkRequest, untracedMarkdown, toolLabel } from './describe';
