/** Words for traces: where a figure came from, the summary line, the follow-up for the model. */
import type { AnswerTrace, FigureTrace, TraceSource } from './match';

const TOOL_LABELS: Record<string, string> = { python: 'Python', sql: 'SQL', r: 'R', duckdb: 'SQL' };

export function toolLabel(tool: string): string {
  return TOOL_LABELS[tool] ?? tool;
}

/** "Python run 2 of this answer, printed output line 4". */
export function describeSource(source: TraceSource): string {
  const run = `${toolLabel(source.tool)} run${source.runsInAnswer > 1 ? ` ${source.runNumber}` : ''} ${source.earlier ? 'of an earlier answer' : 'of this answer'}`;
  return `${run}, ${describeLocation(source)}`;
}

function describeLocation(source: TraceSource): string {
  const { location } = source;
  const output = `output ${source.outputIndex + 1}`;
  switch (location.kind) {
    case 'text':
      return `${output} (printed text, line ${location.line})`;
    case 'table':
      return `${output} (table row ${location.row + 1}, column ${location.column})`;
    case 'shape':
      return `${output} (the table's count of ${location.dimension})`;
    case 'chart':
      return `${output} (chart data row ${location.row + 1}, ${location.field})`;
  }
}

const HOW: Record<TraceSource['how'], string> = {
  exact: 'shown as',
  rounded: 'rounded from',
  percent: 'as a percentage of',
  scaled: 'scaled from',
};

/** "From Python run 2 of this answer, output 1 (printed text, line 4): rounded from 3,214,567." */
export function describeTrace(figure: FigureTrace): string {
  if (!figure.source) return 'Not found in any output.';
  return `From ${describeSource(figure.source)}: ${HOW[figure.source.how]} ${figure.source.shown}.`;
}

/** "4 of 5 figures traced to outputs". */
export function summaryLine(trace: AnswerTrace): string {
  const total = trace.figures.length;
  if (total === trace.traced) return total === 1 ? 'The 1 figure traced to an output' : `All ${total} figures traced to outputs`;
  return `${trace.traced} of ${total} ${total === 1 ? 'figure' : 'figures'} traced to outputs`;
}

/** The figures no output shows, each once. */
export function untracedFigures(trace: AnswerTrace): FigureTrace[] {
  const seen = new Set<string>();
  return trace.figures.filter((figure) => !figure.source && !seen.has(figure.raw) && seen.add(figure.raw));
}

/** What "Check with the model" sends: the untraced figures, and a request to verify them with code. */
export function checkRequest(trace: AnswerTrace): string {
  const lines = untracedFigures(trace).map((figure) => `- ${figure.raw} (“${figure.context}”)`);
  return [
    'These figures in your last answer do not appear in any output of the code that ran:',
    ...lines,
    'Please verify each one with code: compute it and print it, then say whether it was right, and correct the answer where it was not.',
  ].join('\n');
}

/** A markdown list of the untraced figures of a conversation, for an export; null when there are none. */
export function untracedMarkdown(traces: Iterable<AnswerTrace>): string | null {
  const items: string[] = [];
  for (const trace of traces) {
    for (const figure of untracedFigures(trace)) items.push(`- **${figure.raw}** in answer ${trace.answerNumber}: “${figure.context.replace(/([\\`*_[\]<>])/g, '\\$1')}”`);
  }
  if (items.length === 0) return null;
  return ['## Figures not found in any output', '', 'Runpad traced every number of the answers to the outputs of the code that ran. These were found in none; check them before relying on them.', '', ...items].join('\n');
}
