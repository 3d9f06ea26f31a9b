import { describe, expect, it } from 'vitest';
import { mayImport } from './may-import.client';

describe('mayImport', () => {
  it.each(['import numpy as np', 'from pandas import DataFrame', 'x = 1\nif x:\n    import json', 'import\tmath', 'x=1;import os'])('finds an import in %j', (code) => {
    expect(mayImport(code)).toBe(true);
  });

  it.each(['1+1', 'print("x" * 10_000)', '__import__("os")', 'important = 3', 'reimported = True', 'imports = []'])('finds none in %j', (code) => {
    expect(mayImport(code)).toBe(false);
  });
});
