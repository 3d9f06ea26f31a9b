'use client';

import { useEffect, type RefObject } from 'react';

type DismissOptions = {
  /** Escape closes only while focus is inside (a panel that holds a text field). */
  escapeOnlyFromInside?: boolean;
};

/**
 * A popover's way out: a pointer press outside `root` closes it; Escape closes it and gives
 * focus back to the button that opened it.
 */
export function useDismiss(open: boolean, close: () => void, root: RefObject<HTMLElement | null>, button: RefObject<HTMLElement | null>, { escapeOnlyFromInside = false }: DismissOptions = {}) {
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      if (escapeOnlyFromInside && !root.current?.contains(document.activeElement)) return;
      close();
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open, close, root, button, escapeOnlyFromInside]);
}
