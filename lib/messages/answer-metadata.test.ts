import { describe, expect, it } from 'vitest';
import { answerMetadataOf, lastAnswerModel } from './answer-metadata';

describe('an answer’s metadata, read back', () => {
  it('finds the model of the last answer that recorded one (what a fork keeps)', () => {
    expect(
      lastAnswerModel([
        { role: 'assistant', metadata: { model: { id: 'claude', label: 'Claude' } } },
        { role: 'user', metadata: { model: { id: 'forged', label: 'x' } } },
        { role: 'assistant', metadata: { model: { id: 'gemini', label: 'Gemini' } } },
        { role: 'assistant', metadata: null },
      ]),
    ).toEqual({ id: 'gemini', label: 'Gemini' });
    expect(lastAnswerModel([{ role: 'assistant' }])).toBeNull();
    // A label no model has (too long to have been written by the server) is not a model.
    expect(lastAnswerModel([{ role: 'assistant', metadata: { model: { id: 'x', label: 'y'.repeat(500) } } }])).toBeNull();
  });

  it('keeps the fields it can read, drops a malformed one, and passes other metadata through', () => {
    const files = [{ name: 'a.csv' }];
    expect(answerMetadataOf({ cutOff: true, streaming: 'yes', budgetSpent: 8, files })).toEqual({ cutOff: true, budgetSpent: 8, files });
    expect(answerMetadataOf({ budgetSpent: -1, model: 'gpt' })).toEqual({});
    expect(answerMetadataOf(null)).toEqual({});
    expect(answerMetadataOf('cutOff')).toEqual({});
  });
});
