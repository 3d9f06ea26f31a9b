'use client';

import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

type EditMessageFormProps = {
  initialText: string;
  onSend: (text: string) => void;
  onCancel: () => void;
};

/** Editing a sent message: Enter re-sends (the answers after it are replaced), Esc cancels. */
export function EditMessageForm({ initialText, onSend, onCancel }: EditMessageFormProps) {
  const [text, setText] = useState(initialText);
  const field = useRef<HTMLTextAreaElement>(null);
  const fieldId = useId();
  useEffect(() => {
    field.current?.focus();
    field.current?.setSelectionRange(initialText.length, initialText.length);
  }, [initialText]);
  const send = () => {
    if (text.trim()) onSend(text.trim());
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  };
  return (
    <form
      className="ml-auto flex w-full max-w-[85%] flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <label className="sr-only" htmlFor={fieldId}>
        Edit message
      </label>
      <textarea
        id={fieldId}
        ref={field}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        rows={Math.min(10, Math.max(2, text.split('\n').length))}
        className="w-full resize-y rounded-2xl border border-zinc-300 bg-white px-4 py-2 text-[15px] dark:border-zinc-700 dark:bg-zinc-900"
      />
      <div className="flex justify-end gap-2 text-sm">
        <button type="button" onClick={onCancel} className="rounded-lg px-3 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-800">
          Cancel
        </button>
        <button type="submit" disabled={!text.trim()} className="rounded-lg bg-blue-600 px-3 py-1 font-medium text-white hover:bg-blue-700 disabled:opacity-40">
          Send
        </button>
      </div>
    </form>
  );
}
