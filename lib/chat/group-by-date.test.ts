import { describe, expect, it } from 'vitest';
import { dateGroupOf, groupByDate } from './group-by-date.client';

// Local-time constructors: the tests mean the same calendar days in any time zone.
const now = new Date(2026, 2, 15, 0, 10); // 15 March, 00:10
const at = (month: number, day: number, hour = 12, minute = 0) => new Date(2026, month, day, hour, minute);
const item = (id: string, date: Date) => ({ id, updatedAt: date.toISOString() });

describe('dateGroupOf', () => {
  it('puts today, from midnight on, in Today', () => {
    expect(dateGroupOf(at(2, 15, 0, 0), now)).toBe('Today');
    expect(dateGroupOf(at(2, 15, 0, 9), now)).toBe('Today');
  });

  it('puts late yesterday in Previous 7 days, not Today', () => {
    expect(dateGroupOf(at(2, 14, 23, 50), now)).toBe('Previous 7 days');
  });

  it('counts the 7 calendar days before today, and no more', () => {
    expect(dateGroupOf(at(2, 8, 0, 0), now)).toBe('Previous 7 days');
    expect(dateGroupOf(at(2, 7, 23, 59), now)).toBe('Older');
    expect(dateGroupOf(at(0, 1), now)).toBe('Older');
  });

  it('treats a time a little in the future (another clock) as today', () => {
    expect(dateGroupOf(at(2, 15, 0, 20), now)).toBe('Today');
  });

  it('crosses a month boundary by calendar days', () => {
    const first = new Date(2026, 3, 1, 9, 0); // 1 April
    expect(dateGroupOf(at(2, 31, 22), first)).toBe('Previous 7 days');
    expect(dateGroupOf(at(2, 25, 0, 0), first)).toBe('Previous 7 days');
    expect(dateGroupOf(at(2, 24, 23, 59), first)).toBe('Older');
  });

  it('sends an unreadable date to Older instead of dropping it', () => {
    expect(dateGroupOf(new Date('not a date'), now)).toBe('Older');
  });
});

describe('groupByDate', () => {
  it('groups in the order Today, Previous 7 days, Older and keeps each group in list order', () => {
    const list = [
      item('a', at(2, 15, 0, 5)),
      item('b', at(2, 15, 0, 1)),
      item('c', at(2, 14, 9)),
      item('d', at(2, 10)),
      item('e', at(1, 1)),
    ];
    expect(groupByDate(list, now).map((g) => [g.label, g.items.map((i) => i.id)])).toEqual([
      ['Today', ['a', 'b']],
      ['Previous 7 days', ['c', 'd']],
      ['Older', ['e']],
    ]);
  });

  it('leaves out empty groups', () => {
    expect(groupByDate([item('x', at(0, 3))], now).map((g) => g.label)).toEqual(['Older']);
    expect(groupByDate([], now)).toEqual([]);
  });

  it('accepts Date values as well as ISO strings', () => {
    expect(groupByDate([{ id: 'd', updatedAt: at(2, 15, 0, 1) }], now)[0].label).toBe('Today');
  });
});
