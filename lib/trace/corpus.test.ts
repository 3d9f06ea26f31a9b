import { describe, expect, it } from 'vitest';
import { CORPUS } from './corpus';
import { precision, recall, scoreCase, scoreCorpus } from './corpus-score';

describe('the trace corpus', () => {
  it('has at least 60 answers, with false friends and untraced figures among them', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(60);
    expect(CORPUS.filter((c) => c.expect.some(([, source]) => source === null)).length).toBeGreaterThanOrEqual(10);
  });

  for (const testCase of CORPUS.filter((c) => !c.knownMiss)) {
    it(testCase.name, () => {
      const result = scoreCase(testCase);
      expect(result.got).toEqual(testCase.expect);
    });
  }

  it('traces with high precision and recall over the whole corpus (known misses included)', () => {
    const score = scoreCorpus();
    expect(precision(score.tracing)).toBeGreaterThanOrEqual(0.95);
    expect(recall(score.tracing)).toBeGreaterThanOrEqual(0.9);
    expect(precision(score.extraction)).toBeGreaterThanOrEqual(0.95);
  });
});
