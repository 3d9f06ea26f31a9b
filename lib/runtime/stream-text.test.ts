import { describe, expect, it } from 'vitest';
import { appendStreamText, foldCarriageReturns } from './stream-text';

describe('foldCarriageReturns', () => {
  it('keeps only the last state of a line updated in place', () => {
    expect(foldCarriageReturns(' 10%|#         |\r 50%|#####     |\r100%|##########|\n')).toBe('100%|##########|\n');
  });

  it('overwrites like a terminal: a shorter update leaves the rest of the line', () => {
    expect(foldCarriageReturns('loading...\rdone')).toBe('doneing...');
  });

  it('leaves other lines and text without carriage returns alone', () => {
    expect(foldCarriageReturns('a\nb\n')).toBe('a\nb\n');
    expect(foldCarriageReturns('first\nstep 1\rstep 2\nlast\n')).toBe('first\nstep 2\nlast\n');
  });

  it('treats a Windows line end as a line end', () => {
    expect(foldCarriageReturns('one\r\ntwo\r\n')).toBe('one\r\ntwo\r\n');
  });

  it('keeps a trailing carriage return so the next text overwrites the line', () => {
    expect(foldCarriageReturns('1/3\r2/3\r')).toBe('2/3\r');
  });
});

describe('appendStreamText', () => {
  it('folds updates that arrive in separate pieces', () => {
    let text = '';
    for (const piece of ['start\n', '\r1/3', '\r2/3', '\r3/3', '\n', 'end\n']) text = appendStreamText(text, piece);
    expect(text).toBe('start\n3/3\nend\n');
  });

  it('folds an update whose carriage return ended the previous piece', () => {
    expect(appendStreamText('step 1\r', 'step 2')).toBe('step 2');
  });

  it('is plain concatenation without carriage returns', () => {
    expect(appendStreamText('a\n', 'b\n')).toBe('a\nb\n');
  });
});
