/**
 * The sidebar's date groups: conversations updated today, in the 7 days before today, and
 * earlier. Days are calendar days in the time zone of the Date methods (the browser's), so a
 * conversation from 23:50 yesterday is not "Today" at 00:10.
 */
import 'client-only';
export const DATE_GROUPS = ['Today', 'Previous 7 days', 'Older'] as const;
export type DateGroup = (typeof DATE_GROUPS)[number];

export type Grouped<T> = { label: DateGroup; items: T[] };

/** Midnight at the start of `date`'s day, `daysBack` days earlier (DST-safe: calendar arithmetic). */
function startOfDay(date: Date, daysBack = 0): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() - daysBack).getTime();
}

export function dateGroupOf(updatedAt: Date, now: Date): DateGroup {
  const time = updatedAt.getTime();
  // An unreadable date is not hidden: it goes to the oldest group.
  if (Number.isNaN(time)) return 'Older';
  // A clock a little ahead of this one still means "now".
  if (time >= startOfDay(now)) return 'Today';
  if (time >= startOfDay(now, 7)) return 'Previous 7 days';
  return 'Older';
}

/**
 * The items in their groups, in the groups' order, each group keeping the items' order (the list
 * comes newest first). Empty groups are left out.
 */
export function groupByDate<T extends { updatedAt: string | Date }>(items: readonly T[], now: Date): Grouped<T>[] {
  const byGroup = new Map<DateGroup, T[]>(DATE_GROUPS.map((label) => [label, []]));
  for (const item of items) {
    const updatedAt = item.updatedAt instanceof Date ? item.updatedAt : new Date(item.updatedAt);
    byGroup.get(dateGroupOf(updatedAt, now))!.push(item);
  }
  return DATE_GROUPS.map((label) => ({ label, items: byGroup.get(label)! })).filter((group) => group.items.length > 0);
}
