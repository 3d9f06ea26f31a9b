'use client';

import { useEffect, useState, type RefObject } from 'react';

export type VirtualRows = {
  /** First row to render (inclusive). */
  start: number;
  /** Row after the last one to render (exclusive). */
  end: number;
  /** Height in px of the rows above `start`, for a spacer. */
  before: number;
  /** Height in px of the rows from `end` on, for a spacer. */
  after: number;
};

type Options = {
  count: number;
  /** Every row is exactly this many px high. */
  rowHeight: number;
  /** The element that scrolls (it holds the table, its sticky header included). */
  containerRef: RefObject<HTMLElement | null>;
  /** Rows rendered beyond each edge of the viewport, so fast scrolling shows no gap. */
  overscan?: number;
  /** When false, every row is rendered and the container is not observed. */
  enabled?: boolean;
  /** Viewport height assumed before the container has been measured. */
  initialHeight?: number;
};

type Viewport = { scrollTop: number; height: number };

/** Which rows of a fixed-row-height list are in view (plus overscan). Pure, for tests. */
export function visibleRange(count: number, rowHeight: number, viewport: Viewport, overscan: number): VirtualRows {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0, before: 0, after: 0 };
  const first = Math.floor(Math.max(0, viewport.scrollTop) / rowHeight);
  const visible = Math.ceil(Math.max(0, viewport.height) / rowHeight) + 1;
  const start = Math.min(count, Math.max(0, first - overscan));
  const end = Math.min(count, first + visible + overscan);
  return { start, end, before: start * rowHeight, after: (count - end) * rowHeight };
}

/**
 * Windowing for a long table body: only the rows in view of `containerRef` (and `overscan` more
 * each way) are rendered; the caller puts spacer rows of `before` and `after` px around them.
 * Scroll updates are batched to one per animation frame.
 */
export function useVirtualRows({ count, rowHeight, containerRef, overscan = 8, enabled = true, initialHeight = 400 }: Options): VirtualRows {
  const [viewport, setViewport] = useState<Viewport>({ scrollTop: 0, height: initialHeight });

  useEffect(() => {
    const container = containerRef.current;
    if (!enabled || !container) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const next = { scrollTop: container.scrollTop, height: container.clientHeight };
      setViewport((prev) => (prev.scrollTop === next.scrollTop && prev.height === next.height ? prev : next));
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(measure);
    };
    container.addEventListener('scroll', schedule, { passive: true });
    // Fires once on observe, which also takes the first measurement.
    const observer = new ResizeObserver(schedule);
    observer.observe(container);
    return () => {
      container.removeEventListener('scroll', schedule);
      observer.disconnect();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [containerRef, enabled]);

  if (!enabled) return { start: 0, end: Math.max(0, count), before: 0, after: 0 };
  return visibleRange(count, rowHeight, viewport, overscan);
}
