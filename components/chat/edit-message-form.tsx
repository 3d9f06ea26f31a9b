'use client';

import { useEditField } from './use-edit-field';

type EditMessageFormProps = {
  initialText: string;
  onSend: (text: string) => void;
  onCancel: () => void;
};

/** Editing a sent message: Enter re-sends (the answers after it are replaced), Esc cancels. */
export function EditMessageForm({ initialText, onSend, onCancel }: EditMessageFormProps) {
  const send = (text: string) => {
    if (text.trim()) onSend(text.trim());
  };
  const { text, submit, field } = useEditField({ initialText, submitKey: 'enter', onSubmit: send, onCancel });
  return (
    <form
      className="ml-auto flex w-full max-w-[85%] flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label className="sr-only" htmlFor={field.id}>
        Edit message
      </label>
      <textarea
        {...field}
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
