'use client';

import { useEditField } from './use-edit-field';

/** The user's own version of a cell's code: Ctrl/Cmd+Enter runs it, Esc cancels. */
export function CellEditor({ initialCode, onRun, onCancel }: { initialCode: string; onRun: (code: string) => void; onCancel: () => void }) {
  const { text: code, submit, field } = useEditField({ initialText: initialCode, submitKey: 'mod-enter', onSubmit: onRun, onCancel });
  return (
    <form
      className="flex flex-col gap-2 p-2"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label className="sr-only" htmlFor={field.id}>
        Edit code
      </label>
      <textarea
        {...field}
        spellCheck={false}
        rows={Math.min(24, Math.max(3, code.split('\n').length + 1))}
        className="w-full resize-y rounded border border-zinc-300 bg-white p-2 font-mono text-[13px] leading-5 dark:border-zinc-700 dark:bg-zinc-950"
      />
      <div className="flex items-center justify-end gap-2 text-sm">
        <span className="mr-auto text-xs text-zinc-500 dark:text-zinc-400">Ctrl+Enter runs · Esc cancels · the model sees your version next turn</span>
        <button type="button" onClick={onCancel} className="rounded px-3 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-800">
          Cancel
        </button>
        <button type="submit" className="rounded bg-blue-600 px-3 py-1 font-medium text-white hover:bg-blue-700">
          Run
        </button>
      </div>
    </form>
  );
}
