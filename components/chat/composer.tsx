'use client';

import { forwardRef, memo, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useHydrated } from '@/components/ui/use-hydrated';
import { ACCEPT_ATTRIBUTE } from '@/lib/files/accept';
import { isSubmitKey } from './use-edit-field';

type ComposerProps = {
  busy: boolean;
  /**
   * False while attached files are still being kept or uploaded: a message sent then waits, says
   * so under the box, and goes when they are ready (or is taken back with Cancel).
   */
  canSend: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  onFiles: (files: File[]) => void;
  /** The person has typed something: a question is coming (Python, if it waits to be needed, starts). */
  onTyping?: () => void;
  attachments: ReactNode;
};

const PLACEHOLDER = 'Ask a question; the model can run code in your browser';
/** Where the long one would be cut (a phone, or beside the sidebar on a small tablet). */
const SHORT_PLACEHOLDER = 'Ask a question';

let measuring: CanvasRenderingContext2D | null = null;
/** Whether `text` fits on one line of the textarea, in its font. */
function fits(textarea: HTMLTextAreaElement, text: string): boolean {
  measuring ??= document.createElement('canvas').getContext('2d');
  if (!measuring) return true;
  const style = getComputedStyle(textarea);
  measuring.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = textarea.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return measuring.measureText(text).width <= room;
}


/**
 * The message box: Enter sends, Shift+Enter is a newline, Esc stops. It has focus when the page
 * loads (unless the user already put it elsewhere, or on a touch screen, where focus would open
 * the keyboard over the page); its placeholder is shortened where it would be cut. It takes input
 * only once the page is interactive: text typed into the server's HTML before then would be
 * dropped by hydration, and Enter would add a newline instead of sending.
 */
export const Composer = memo(forwardRef<HTMLTextAreaElement, ComposerProps>(function Composer({ busy, canSend, onSend, onStop, onFiles, onTyping, attachments }, ref) {
  const [text, setText] = useState('');
  const [placeholder, setPlaceholder] = useState(PLACEHOLDER);
  const picker = useRef<HTMLInputElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const hydrated = useHydrated();
  useImperativeHandle(ref, () => textarea.current!, []);

  useEffect(() => {
    const active = document.activeElement;
    const nothingFocused = active === null || active === document.body;
    if (nothingFocused && !matchMedia('(pointer: coarse)').matches) textarea.current?.focus({ preventScroll: true });
  }, []);

  useLayoutEffect(() => {
    const element = textarea.current;
    if (!element) return;
    const choose = () => setPlaceholder(fits(element, PLACEHOLDER) ? PLACEHOLDER : SHORT_PLACEHOLDER);
    choose();
    const observer = new ResizeObserver(choose);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  /** A message sent while its files were not ready: it goes when they are. */
  const [queued, setQueued] = useState<string | null>(null);
  useEffect(() => {
    if (queued === null || busy || !canSend) return;
    onSend(queued);
    setQueued(null);
  }, [queued, busy, canSend, onSend]);
  const send = () => {
    const value = text.trim();
    if (!value || busy || queued !== null) return;
    if (canSend) onSend(value);
    else setQueued(value);
    setText('');
  };
  const cancelQueued = () => {
    setText(queued ?? '');
    setQueued(null);
    textarea.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (isSubmitKey(event, 'enter')) {
      event.preventDefault();
      send();
    } else if (event.key === 'Escape' && busy) {
      event.preventDefault();
      onStop();
    }
  };
  return (
    <form
      className="rounded-2xl border border-zinc-300 bg-white p-2 shadow-sm dark:border-zinc-700 dark:bg-zinc-900"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      {attachments}
      {queued !== null && (
        <p role="status" data-testid="queued-message" className="mb-1 flex items-center gap-2 rounded-lg bg-blue-50 px-2 py-1 text-xs text-blue-900 dark:bg-blue-950 dark:text-blue-100">
          <span className="min-w-0 flex-1 truncate">
            Sends when the files are ready: <q>{queued}</q>
          </span>
          <button type="button" onClick={cancelQueued} className="shrink-0 underline">
            Cancel
          </button>
        </p>
      )}
      <div className="flex items-end gap-2">
      <input
        ref={picker}
        type="file"
        multiple
        accept={ACCEPT_ATTRIBUTE}
        className="hidden"
        aria-label="Attach files"
        onChange={(event) => {
          onFiles(Array.from(event.target.files ?? []));
          event.target.value = '';
        }}
      />
      <button type="button" onClick={() => picker.current?.click()} aria-label="Attach files" title="Attach files" className="rounded-xl p-2 text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800">
        <svg aria-hidden viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M21.4 11.1l-8.5 8.5a5.5 5.5 0 01-7.8-7.8l8.5-8.5a3.7 3.7 0 015.2 5.2l-8.5 8.5a1.8 1.8 0 01-2.6-2.6l7.8-7.8" />
        </svg>
      </button>
      <label htmlFor="composer" className="sr-only">
        Message
      </label>
      <textarea
        id="composer"
        ref={textarea}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          if (event.target.value.trim() !== '') onTyping?.();
        }}
        onKeyDown={onKeyDown}
        onPaste={(event) => {
          const files = Array.from(event.clipboardData.files);
          if (files.length > 0) {
            event.preventDefault();
            onFiles(files);
          }
        }}
        readOnly={!hydrated}
        aria-busy={!hydrated}
        rows={Math.min(8, Math.max(1, text.split('\n').length))}
        placeholder={placeholder}
        className="max-h-60 min-h-10 flex-1 resize-none bg-transparent px-2 py-2 text-[15px] outline-none placeholder:text-zinc-400"
      />
      {busy ? (
        <button type="button" onClick={onStop} className="rounded-xl bg-zinc-800 px-4 py-2 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-200 dark:text-zinc-900">
          Stop
        </button>
      ) : (
        <button type="submit" disabled={!text.trim() || queued !== null} title={canSend ? undefined : 'Sends when the attached files are ready'} className="rounded-xl bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-40">
          Send
        </button>
      )}
      </div>
    </form>
  );
}));
