'use client';

import { useEffect, useRef, useState } from 'react';
import { createPacer, type Pacer } from './pacer';

/**
 * How often an answer's text, while it streams, is drawn anew. A model sends a chunk every few
 * milliseconds; drawing each one cost the page a render of the answer's last block and a frame of
 * style, layout and paint over the whole answer: 7.6 s of the main thread's CPU over a 9.2 s,
 * 20,000-token answer, against 4.0 s drawn ten times a second (bench/NOTES.md). Ten times a second
 * reads as continuous text; the rest of the message (a cell, its outputs) is drawn at once.
 */
export const TEXT_PACE_MS = 100;

/** `text` as it should be drawn: while `streaming`, the newest text at most once per `paceMs`; once it stops, at once. */
export function usePacedText(text: string, streaming: boolean, paceMs = TEXT_PACE_MS): string {
  const [shown, setShown] = useState(text);
  const pacer = useRef<Pacer<string> | null>(null);
  useEffect(() => {
    const made = createPacer(paceMs, setShown);
    pacer.current = made;
    return () => made.cancel();
  }, [paceMs]);
  useEffect(() => {
    if (streaming) pacer.current?.push(text);
    else pacer.current?.cancel();
  }, [text, streaming]);
  return streaming ? shown : text;
}
