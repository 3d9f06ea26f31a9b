'use client';

import { useEffect, useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(', ');

type DialogProps = {
  open: boolean;
  /** Esc, a click on the backdrop, or the caller's own Cancel: the caller sets `open` to false. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  /** What has focus when the dialog opens; by default its first focusable element. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Where focus goes on close when the element that had it before is gone (e.g. a deleted row). */
  fallbackFocus?: () => HTMLElement | null;
  /** A list that needs the room (e.g. My datasets): up to 40rem instead of 26rem, never wider than the screen. */
  wide?: boolean;
};

/**
 * A small modal dialog: role="dialog", aria-modal, labelled by its title (and described by its
 * description), in the top layer with the page behind it inert (showModal). Tab and Shift+Tab
 * cycle inside it, Esc and a click on the backdrop close it, and focus goes back where it was.
 * Its content is mounted only while open, so each opening starts fresh.
 */
export function Dialog({ open, onClose, title, description, children, initialFocus, fallbackFocus, wide = false }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const latest = useRef({ onClose, fallbackFocus, initialFocus, open });
  /** Whether the pointer went down on the backdrop: a drag out of the panel is not a click outside. */
  const downOnBackdrop = useRef(false);
  useEffect(() => {
    latest.current = { onClose, fallbackFocus, initialFocus, open };
  });

  // Before paint: the dialog is shown and focused in the same frame its content appears.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const first = latest.current.initialFocus?.current ?? dialog.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => {
      if (dialog.open) dialog.close();
      // After the caller's update is committed: a deleted opener is gone by then.
      queueMicrotask(() => {
        const target = opener?.isConnected ? opener : latest.current.fallbackFocus?.();
        target?.focus();
      });
    };
  }, [open]);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab') return;
    const focusable = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((element) => element.offsetParent !== null || element === document.activeElement);
    if (focusable.length === 0) {
      event.preventDefault();
      return;
    }
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !event.currentTarget.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !event.currentTarget.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onKeyDown={onKeyDown}
      // Esc: the caller closes it (its state stays the truth).
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // Closed some other way (e.g. the browser insisting after repeated Esc): tell the caller.
      // The event comes a task after the close; a dialog open again by then (Esc, then Enter on
      // its opener at once) was reopened since, and the event is stale.
      onClose={(event) => {
        if (latest.current.open && !event.currentTarget.open) latest.current.onClose();
      }}
      // A click outside the panel lands on the dialog element itself (its ::backdrop).
      onPointerDown={(event) => {
        downOnBackdrop.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget && downOnBackdrop.current) onClose();
      }}
      className={`m-auto ${wide ? 'w-[min(40rem,calc(100vw-2rem))]' : 'w-[min(26rem,calc(100vw-2rem))]'} rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100`}
    >
      {open && (
        <div className="p-5">
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          {description && (
            <div id={descriptionId} className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
              {description}
            </div>
          )}
          <div className="mt-4">{children}</div>
        </div>
      )}
    </dialog>
  );
}
