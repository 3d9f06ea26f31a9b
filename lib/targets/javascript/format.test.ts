import { describe, expect, it } from 'vitest';
import { inspect, lineOfError, printed } from './format.client';

describe('the JavaScript worker’s text of values', () => {
  it('prints strings as they are and other values as inspected, separated by spaces', () => {
    expect(printed(['total', 3, { a: [1, 2] }])).toBe('total 3 {\n  "a": [\n    1,\n    2\n  ]\n}');
  });

  it('shows a result as Node would: strings quoted, big integers, functions by name, collections with their size', () => {
    expect(inspect('hi')).toBe('"hi"');
    expect(inspect(10n)).toBe('10n');
    expect(inspect(function area() {})).toBe('[Function: area]');
    expect(inspect(null)).toBe('null');
    expect(inspect(new Map([['a', 1]]))).toBe('Map(1) {\n  "a": 1\n}');
    expect(inspect(new Set([1]))).toBe('Set(1) [\n  1\n]');
  });

  it('shows a circular object without failing', () => {
    const loop: { name: string; self?: unknown } = { name: 'loop' };
    loop.self = loop;
    expect(inspect(loop)).toContain('"self": "[Circular]"');
  });

  it('reads the line of evaluated code from an error’s stack, and none when it names none', () => {
    expect(lineOfError('ReferenceError: y is not defined\n    at eval (eval at run (http://x/workers/javascript.worker.mjs:1:900), <anonymous>:3:9)')).toBe(3);
    expect(lineOfError('SyntaxError: Unexpected token')).toBeUndefined();
    expect(lineOfError(undefined)).toBeUndefined();
  });

  it('an error thrown by evaluated code names its line in this engine too', () => {
    let stack: string | undefined;
    try {
      (0, eval)('const a = 1;\nnotDefined + a');
    } catch (error) {
      stack = (error as Error).stack;
    }
    expect(lineOfError(stack)).toBe(2);
  });
});
