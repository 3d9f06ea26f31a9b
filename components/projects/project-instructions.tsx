'use client';

/**
 * A project's instructions on its page: shown to every member; its owner and those who can edit
 * change them here (PATCH /api/projects/<id>), any refusal in the server's words. A member who can
 * use it is offered no control (the server refuses them anyway: lib/access/authorize.server.ts).
 */
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { failureWords } from '@/lib/http/error-body.client';

export function ProjectInstructions({ projectId, instructions, canEdit }: { projectId: string; instructions: string; canEdit: boolean }) {
  const router = useRouter();
  const fieldId = useId();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(instructions);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    const body = JSON.stringify({ instructions: draft });
    const response = await fetch(`/api/projects/${projectId}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body }).catch(() => null);
    if (!response?.ok) return setError(await failureWords(response, 'The instructions could not be saved.'));
    setEditing(false);
    setError(null);
    router.refresh();
  };
  if (editing) {
    return (
      <form className="mt-2 space-y-2" onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}>
        <label htmlFor={fieldId} className="sr-only">Instructions</label>
        <textarea id={fieldId} value={draft} onChange={(event) => setDraft(event.target.value)} rows={6} maxLength={20_000} autoFocus className="w-full rounded-lg border border-zinc-300 bg-white p-3 text-sm dark:border-zinc-700 dark:bg-zinc-900" />
        <div className="flex gap-2">
          <button type="submit" className="rounded-lg bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2">Save instructions</button>
          <button type="button" onClick={() => { setDraft(instructions); setEditing(false); setError(null); }} className="rounded-lg px-3 py-1.5 text-sm hover:bg-zinc-100 focus-visible:outline focus-visible:outline-2 dark:hover:bg-zinc-800">Cancel</button>
        </div>
        {error && <p role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</p>}
      </form>
    );
  }
  return (
    <>
      <p data-testid="project-instructions" className="mt-2 whitespace-pre-wrap break-words rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800">{instructions || 'None yet.'}</p>
      {canEdit && (
        <button type="button" onClick={() => setEditing(true)} className="mt-2 rounded px-1 text-sm text-blue-700 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 dark:text-blue-400">
          Edit instructions
        </button>
      )}
    </>
  );
}
