import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatUsd } from './format';

describe('numbers as people read them', () => {
  it('bytes in decimal units, counts grouped, dollars to the cent or to two significant digits below one', () => {
    expect(formatBytes(1_000_000_000)).toBe('1.0 GB');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(0.0001)).toBe('$0.0001');
    expect(formatUsd(0.004567)).toBe('$0.0046');
  });
});
