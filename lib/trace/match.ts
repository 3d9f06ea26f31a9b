/**
 * Matching an answer's figures against the outputs of the runs it can see: the runs of its own
 * turn first, then those of earlier turns. A figure matches a number when the number, rounded to
 * the figure's shown precision, is the figure (3.2M ↔ 3,214,567; 12% ↔ 12.43), directly or
 * through a percentage ↔ fraction (12.4% ↔ 0.124) or a unit scaling (3.2M ↔ 3.2 or 3,214.6 in a
 * column of millions or thousands). Signs are ignored ("fell 3.4%" ↔ -0.034).
 *
 * Among several matches: a direct one (exact or rounded) beats a conversion, then this turn beats
 * earlier turns, then exact beats rounded, then a later run beats an earlier one (the model's
 * last run is usually the one it reports).
 */
import { magnitude } from './numbers';
import { proseFigures, type Figure } from './prose';
import { runSourceOf, shownText, type RunSource, type SourceLocation, type SourceNumber, type TraceMessage } from './sources';

export type MatchKind = 'exact' | 'rounded' | 'percent' | 'scaled';

export type TraceSource = {
  toolCallId: string;
  /** The tool's name (python, sql, r…). */
  tool: string;
  /** The run's position among the runs of its answer (1-based), and how many that answer has. */
  runNumber: number;
  runsInAnswer: number;
  /** The run belongs to an earlier answer than the figure's. */
  earlier: boolean;
  outputIndex: number;
  location: SourceLocation;
  /** The number as the output shows it. */
  shown: string;
  how: MatchKind;
};

export type FigureTrace = { raw: string; context: string; source: TraceSource | null };

/** `answerNumber`: the answer's position among the conversation's assistant messages (1-based). */
export type AnswerTrace = { messageId: string; answerNumber: number; figures: FigureTrace[]; traced: number };

const KIND_RANK: Record<MatchKind, number> = { exact: 0, rounded: 1, percent: 2, scaled: 2 };

/** A figure's value and how far a number may be from it: half a unit of its last shown digit. */
type Wanted = { figure: Figure; value: number; tolerance: number; wholeSmallCount: boolean };

function wantedOf(figure: Figure): Wanted {
  const value = magnitude(figure);
  return {
    figure,
    value,
    tolerance: 0.5 * 10 ** -figure.decimals * figure.scale * (1 + 1e-9) + 1e-12,
    // A count below 10 rounded from another number says little ("3 products" is not 2.5 rounded).
    wholeSmallCount: figure.decimals === 0 && figure.scale === 1 && !figure.percent && !figure.currency && figure.unit === null && value < 10,
  };
}

const SCALE_FACTORS = [1e3, 1e6, 1e9] as const;

/** How `number` matches the figure, or null. Hot: runs once per figure per number of every visible output. */
function kindFor(wanted: Wanted, number: Pick<SourceNumber, 'value' | 'scale' | 'percent'>): MatchKind | null {
  const { value: target, tolerance, figure } = wanted;
  const value = number.value;
  const distance = Math.abs(value - target);
  if (distance <= tolerance) {
    if (distance <= 1e-9 * Math.max(1, target)) return 'exact';
    return wanted.wholeSmallCount ? null : 'rounded';
  }
  if (wanted.wholeSmallCount) return null;
  if (figure.percent && !number.percent && Math.abs(value * 100 - target) <= tolerance) return 'percent';
  if (!figure.percent && number.percent && Math.abs(value / 100 - target) <= tolerance) return 'percent';
  if (figure.scale > 1 && number.scale === 1) {
    for (const factor of SCALE_FACTORS) if (factor < figure.scale * 1e3 && Math.abs(value * factor - target) <= tolerance) return 'scaled';
  }
  return null;
}

/** How a number (its magnitude, scale and percent sign) matches `figure`, or null. */
export function matchKind(figure: Figure, number: Pick<SourceNumber, 'value' | 'scale' | 'percent'>): MatchKind | null {
  return kindFor(wantedOf(figure), number);
}

type VisibleRun = { run: RunSource; turn: number; runNumber: number; runsInAnswer: number };

type Candidate = { visible: VisibleRun; number: SourceNumber; how: MatchKind; order: number };

function better(a: Candidate, b: Candidate): boolean {
  const strong = (c: Candidate) => (KIND_RANK[c.how] < 2 ? 0 : 1);
  if (strong(a) !== strong(b)) return strong(a) < strong(b);
  if (a.visible.turn !== b.visible.turn) return a.visible.turn < b.visible.turn;
  if (KIND_RANK[a.how] !== KIND_RANK[b.how]) return KIND_RANK[a.how] < KIND_RANK[b.how];
  if (a.visible.runNumber !== b.visible.runNumber) return a.visible.runNumber > b.visible.runNumber;
  return a.order < b.order;
}

/** Traces `figures` against `runs` (already in the order the answer sees them). */
export function traceFigures(figures: readonly Figure[], runs: readonly VisibleRun[]): FigureTrace[] {
  return figures.map((figure) => {
    const wanted = wantedOf(figure);
    let found: Candidate | null = null;
    for (const visible of runs) {
      const numbers = visible.run.numbers;
      for (let order = 0; order < numbers.length; order += 1) {
        const how = kindFor(wanted, numbers[order]);
        if (!how) continue;
        const candidate = { visible, number: numbers[order], how, order };
        if (!found || better(candidate, found)) found = candidate;
      }
    }
    return {
      raw: figure.raw,
      context: figure.context,
      source: found && {
        toolCallId: found.visible.run.toolCallId,
        tool: found.visible.run.tool,
        runNumber: found.visible.runNumber,
        runsInAnswer: found.visible.runsInAnswer,
        earlier: found.visible.turn > 0,
        outputIndex: found.number.outputIndex,
        location: found.number.location,
        shown: shownText(found.number),
        how: found.how,
      },
    };
  });
}

function runsOf(message: TraceMessage): RunSource[] {
  return message.parts.flatMap((part) => runSourceOf(part) ?? []);
}

/** Figures per stored text part: a conversation is traced again after every turn, its old answers unchanged. */
const figureCache = new WeakMap<object, Figure[]>();

function figuresOf(message: TraceMessage): Figure[] {
  return message.parts.flatMap((part) => {
    const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown };
    if (type !== 'text' || typeof text !== 'string') return [];
    const cached = figureCache.get(part as object);
    if (cached) return cached;
    const figures = proseFigures(text);
    figureCache.set(part as object, figures);
    return figures;
  });
}

/**
 * The trace of every assistant answer of a conversation that can see at least one run (an answer
 * in a conversation without runs has nothing to be traced to). Answers without figures get a
 * trace with no figures.
 */
export function traceConversation(messages: readonly TraceMessage[]): Map<string, AnswerTrace> {
  const traces = new Map<string, AnswerTrace>();
  const earlierTurns: RunSource[][] = [];
  let answerNumber = 0;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    answerNumber += 1;
    const own = runsOf(message);
    const visible: VisibleRun[] = [
      ...own.map((run, i) => ({ run, turn: 0, runNumber: i + 1, runsInAnswer: own.length })),
      ...earlierTurns.flatMap((runs, back) => runs.map((run, i) => ({ run, turn: back + 1, runNumber: i + 1, runsInAnswer: runs.length }))),
    ];
    earlierTurns.unshift(own);
    if (visible.length === 0) continue;
    const figures = traceFigures(figuresOf(message), visible);
    traces.set(message.id, { messageId: message.id, answerNumber, figures, traced: figures.filter((f) => f.source).length });
  }
  return traces;
}
