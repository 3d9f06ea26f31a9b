'use client';

import { useState } from 'react';

type ShareState = { kind: 'idle' } | { kind: 'busy' } | { kind: 'shared'; url: string } | { kind: 'error'; message: string };

/** Share: creates (or updates) the link to a snapshot of the conversation; Revoke turns it off. */
export function ShareButton({ conversationId, disabled }: { conversationId: string; disabled: boolean }) {
  const [state, setState] = useState<ShareState>({ kind: 'idle' });
  const share = async () => {
    setState({ kind: 'busy' });
    const response = await fetch(`/api/conversations/${conversationId}/share`, { method: 'POST' });
    if (!response.ok) {
      setState({ kind: 'error', message: 'Send a message first: only saved conversations can be shared.' });
      return;
    }
    const { path } = (await response.json()) as { path: string };
    const url = new URL(path, window.location.origin).href;
    setState({ kind: 'shared', url });
    void navigator.clipboard?.writeText(url).catch(() => undefined);
  };
  const revoke = async () => {
    setState({ kind: 'busy' });
    const response = await fetch(`/api/conversations/${conversationId}/share`, { method: 'DELETE' });
    setState(response.ok ? { kind: 'idle' } : { kind: 'error', message: 'The link could not be revoked.' });
  };
  return (
    <div className="relative flex items-center gap-2 text-xs">
      <button type="button" onClick={share} disabled={disabled || state.kind === 'busy'} className="rounded px-1.5 py-0.5 underline hover:bg-zinc-100 disabled:opacity-40 dark:hover:bg-zinc-800">
        {state.kind === 'shared' ? 'Update link' : 'Share'}
      </button>
      {state.kind === 'shared' && (
        <>
          <input aria-label="Share link" readOnly value={state.url} onFocus={(e) => e.currentTarget.select()} className="w-56 rounded border border-zinc-300 bg-transparent px-1 py-0.5 dark:border-zinc-700" />
          <button type="button" onClick={revoke} className="rounded px-1.5 py-0.5 underline hover:bg-zinc-100 dark:hover:bg-zinc-800">
            Revoke
          </button>
        </>
      )}
      {state.kind === 'error' && (
        <span role="alert" className="text-red-700 dark:text-red-400">
          {state.message}
        </span>
      )}
    </div>
  );
}
