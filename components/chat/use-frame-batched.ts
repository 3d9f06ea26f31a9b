'use client';

import { useCallback, useEffect, useRef } from 'react';

/**
 * A callback that passes on only the latest value it was given, at most once per animation
 * frame: for state fed by a stream of outputs, so React renders per frame, not per output.
 */
export function useFrameBatched<T>(apply: (value: T) => void): (value: T) => void {
  const latest = useRef<{ value: T } | null>(null);
  const frame = useRef<number | null>(null);
  const applyRef = useRef(apply);
  useEffect(() => {
    applyRef.current = apply;
  }, [apply]);
  useEffect(() => () => {
    if (frame.current !== null) cancelAnimationFrame(frame.current);
  }, []);
  return useCallback((value: T) => {
    latest.current = { value };
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      if (latest.current) applyRef.current(latest.current.value);
      latest.current = null;
    });
  }, []);
}
