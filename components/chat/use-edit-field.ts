'use client';

import { useEffect, useId, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';

/** Which key press submits a text field: Enter (Shift+Enter is a newline) or Ctrl/Cmd+Enter. */
export type SubmitKey = 'enter' | 'mod-enter';

export function isSubmitKey(event: KeyboardEvent<HTMLTextAreaElement>, key: SubmitKey): boolean {
  if (event.key !== 'Enter') return false;
  if (key === 'mod-enter') return event.ctrlKey || event.metaKey;
  return !event.shiftKey && !event.nativeEvent.isComposing; // not while an IME is composing
}

/**
 * An inline editor's text field: focused with the caret at the end when it opens, submitted with
 * `submitKey`, cancelled with Esc (which goes no further, so it does not also stop a run).
 */
export function useEditField({ initialText, submitKey, onSubmit, onCancel }: { initialText: string; submitKey: SubmitKey; onSubmit: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(initialText);
  const ref = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  useEffect(() => {
    ref.current?.focus();
    ref.current?.setSelectionRange(initialText.length, initialText.length);
  }, [initialText]);
  const submit = () => onSubmit(text);
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (isSubmitKey(event, submitKey)) {
      event.preventDefault();
      submit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  };
  return { text, submit, field: { id, ref, value: text, onChange: (event: ChangeEvent<HTMLTextAreaElement>) => setText(event.target.value), onKeyDown } };
}
