/** Scores the tracer on the corpus: what the unit test checks and what bench/trace.mjs prints. */
import { CORPUS, type CorpusCase } from './corpus';
import { traceConversation, type FigureTrace } from '@/lib/trace/match';

export type CaseResult = { name: string; ok: boolean; knownMiss?: string; expected: CorpusCase['expect']; got: Array<[string, string | null]> };

export type CorpusScore = {
  cases: number;
  figures: number;
  /** Figures taken that are no figures (false friends), and figures missed. */
  extraction: { truePositives: number; falsePositives: number; falseNegatives: number };
  /** Traced to the right run (and output, when the case says). */
  tracing: { truePositives: number; falsePositives: number; falseNegatives: number };
  /** "Not found in any output" said of a figure that no output shows. */
  untraced: { truePositives: number; falsePositives: number; falseNegatives: number };
  results: CaseResult[];
};

function sourceKey(figure: FigureTrace, expected: string | null): string | null {
  if (!figure.source) return null;
  return expected?.includes(':') ? `${figure.source.toolCallId}:${figure.source.outputIndex}` : figure.source.toolCallId;
}

export function scoreCase(testCase: CorpusCase): CaseResult {
  const last = [...testCase.messages].reverse().find((m) => m.role === 'assistant');
  const trace = last ? traceConversation(testCase.messages).get(last.id) : undefined;
  const figures = trace?.figures ?? [];
  const got: Array<[string, string | null]> = figures.map((figure, i) => [figure.raw, sourceKey(figure, testCase.expect[i]?.[1] ?? null)]);
  const ok = JSON.stringify(got) === JSON.stringify(testCase.expect);
  return { name: testCase.name, ok, knownMiss: testCase.knownMiss, expected: testCase.expect, got };
}

/** Aligns got and expected figures by raw text in order (a false friend shifts nothing else). */
function align(expected: CorpusCase['expect'], got: Array<[string, string | null]>): Array<[CorpusCase['expect'][number] | null, [string, string | null] | null]> {
  const pairs: Array<[CorpusCase['expect'][number] | null, [string, string | null] | null]> = [];
  let g = 0;
  for (const e of expected) {
    const at = got.findIndex((item, i) => i >= g && item[0] === e[0]);
    if (at === -1) {
      pairs.push([e, null]);
      continue;
    }
    for (; g < at; g += 1) pairs.push([null, got[g]]);
    pairs.push([e, got[at]]);
    g = at + 1;
  }
  for (; g < got.length; g += 1) pairs.push([null, got[g]]);
  return pairs;
}

export function scoreCorpus(corpus: readonly CorpusCase[] = CORPUS): CorpusScore {
  const zero = () => ({ truePositives: 0, falsePositives: 0, falseNegatives: 0 });
  const score: CorpusScore = { cases: corpus.length, figures: 0, extraction: zero(), tracing: zero(), untraced: zero(), results: [] };
  for (const testCase of corpus) {
    const result = scoreCase(testCase);
    score.results.push(result);
    score.figures += testCase.expect.length;
    for (const [expected, got] of align(testCase.expect, result.got)) {
      if (expected && got) score.extraction.truePositives += 1;
      else if (got) score.extraction.falsePositives += 1;
      else score.extraction.falseNegatives += 1;
      const wanted = expected?.[1] ?? null;
      const found = got?.[1] ?? null;
      if (found !== null && found === wanted) score.tracing.truePositives += 1;
      else {
        if (found !== null) score.tracing.falsePositives += 1;
        if (wanted !== null) score.tracing.falseNegatives += 1;
      }
      if (expected && wanted === null) {
        if (got && found === null) score.untraced.truePositives += 1;
        else score.untraced.falseNegatives += 1;
      } else if (got && found === null) score.untraced.falsePositives += 1;
    }
  }
  return score;
}

export function precision(counts: { truePositives: number; falsePositives: number }): number {
  const all = counts.truePositives + counts.falsePositives;
  return all === 0 ? 1 : counts.truePositives / all;
}

export function recall(counts: { truePositives: number; falseNegatives: number }): number {
  const all = counts.truePositives + counts.falseNegatives;
  return all === 0 ? 1 : counts.truePositives / all;
}
