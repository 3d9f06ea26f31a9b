'use client';

import { z } from 'zod';
import { failureWords, readJsonAs } from '@/lib/http/error-body.client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useDismiss } from '@/components/ui/use-dismiss';
import type { ClientConfig } from '@/lib/client-config';
import { ShareLink, type LinkAudience } from './share-link';
import { ShareWithPeople } from './share-with-people';

type ShareState = { kind: 'idle' } | { kind: 'busy'; url: string | null } | { kind: 'shared'; url: string } | { kind: 'error'; message: string };

/** How long the button says "Copied" before it says "Share" again. */
const COPIED_FOR_MS = 2000;

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false; // refused or unavailable: the caller says to copy the link from its box
  }
}

/**
 * Share: creates (or updates) the link to a snapshot of the conversation and copies it; the
 * button says "Copied" and a live region says so. The link, whom it opens for, and Revoke to turn
 * it off, are in a panel under the button (over the page, so the header keeps its single row),
 * above sharing with people; Esc or a click elsewhere closes the panel. Where the operator turned
 * links off (RUNPAD_PUBLIC_SHARES=off), Share opens the panel with sharing to people only.
 */
export function ShareButton({ conversationId, disabled, links }: { conversationId: string; disabled: boolean; links: ClientConfig['publicShares'] }) {
  const [state, setState] = useState<ShareState>({ kind: 'idle' });
  const [panelOpen, setPanelOpen] = useState(false);
  /** Whether the current link reached the clipboard (null: not tried yet). */
  const [inClipboard, setInClipboard] = useState<boolean | null>(null);
  /** The button says "Copied" for a moment after each copy. */
  const [copied, setCopied] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  /** Whom the link opens for (the server's answer; before any, the widest the operator allows). */
  const [audience, setAudience] = useState<LinkAudience>(links === 'on' ? 'anyone' : 'signed_in');
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const closePanel = useCallback(() => setPanelOpen(false), []);
  useDismiss(panelOpen, closePanel, root, button, { escapeOnlyFromInside: true });

  const share = async (audience?: LinkAudience) => {
    setState({ kind: 'busy', url: state.kind === 'shared' ? state.url : null });
    setCopied(false);
    setInClipboard(null);
    setAnnouncement('');
    const body = audience ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ audience }) } : {};
    const response = await fetch(`/api/conversations/${conversationId}/share`, { method: 'POST', ...body }).catch(() => null); // no answer: worded below
    if (!response?.ok) {
      // Not found: the conversation is not stored yet. Anything else in the server's words (a database that is down).
      const message = response?.status === 404 ? 'Send a message first: only saved conversations can be shared.' : await failureWords(response, 'The link could not be made: Runpad could not be reached. Try again.');
      setState({ kind: 'error', message });
      return;
    }
    const answer = await readJsonAs(response, z.object({ path: z.string().startsWith('/'), audience: z.enum(['anyone', 'signed_in']) }));
    if (!answer) {
      setState({ kind: 'error', message: 'The share link in the server’s answer was not understood. Try again.' });
      return;
    }
    const url = new URL(answer.path, window.location.origin).href;
    setState({ kind: 'shared', url });
    setAudience(answer.audience);
    setPanelOpen(true);
    // The link is shown first: a clipboard that never answers (a pending permission) delays nothing.
    const wasCopied = await copy(url);
    setInClipboard(wasCopied);
    setCopied(wasCopied);
    setAnnouncement(wasCopied ? 'Link copied to the clipboard.' : 'Link created; copy it from the Share link box.');
  };

  const revoke = async () => {
    setState({ kind: 'busy', url: null });
    setCopied(false);
    const response = await fetch(`/api/conversations/${conversationId}/share`, { method: 'DELETE' }).catch(() => null); // no answer: worded below
    if (response?.ok) {
      setState({ kind: 'idle' });
      setPanelOpen(false);
      setAnnouncement('Link revoked: it no longer opens this conversation.');
      button.current?.focus();
    } else {
      const message = response?.status === 404 ? 'There is no active link to revoke (it was revoked already).' : await failureWords(response, 'The link could not be revoked: Runpad could not be reached. Try again.');
      setState({ kind: 'error', message });
    }
  };

  // While a change is on its way the link stays shown (the panel stays open, focus where it was).
  const url = state.kind === 'shared' || state.kind === 'busy' ? state.url : null;
  const open = panelOpen && (url !== null || links === 'off');
  return (
    // Narrow screens: the panel is placed against the header (relative there), across its width.
    <div ref={root} className="flex items-center text-xs max-sm:static sm:relative">
      <button
        ref={button}
        type="button"
        // Not disabled while busy (a disabled button loses focus): a click then does nothing.
        onClick={() => {
          if (links === 'off') setPanelOpen((value) => !value);
          else if (state.kind !== 'busy') void share();
        }}
        aria-expanded={links === 'off' ? open : undefined}
        disabled={disabled}
        aria-disabled={state.kind === 'busy' || undefined}
        className="flex items-center gap-1 whitespace-nowrap rounded px-1.5 py-0.5 underline hover:bg-zinc-100 disabled:opacity-40 dark:hover:bg-zinc-800"
      >
        {copied ? (
          <svg aria-hidden viewBox="0 0 24 24" className="size-4 lg:hidden" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <path d="M20 6 9 17l-5-5" />
          </svg>
        ) : (
          <svg aria-hidden viewBox="0 0 24 24" className="size-4 lg:hidden" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <path d="M4 12v7a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-7M16 6l-4-4-4 4M12 2v13" />
          </svg>
        )}
        <span className="max-lg:sr-only">{copied ? 'Copied' : 'Share'}</span>
      </button>
      <span role="status" className="sr-only">
        {announcement}
      </span>
      {open && (
        <div
          role="group"
          aria-label="Share"
          className="absolute top-full z-30 mt-1 rounded-lg border border-zinc-200 bg-white p-3 text-zinc-900 shadow-lg max-sm:inset-x-2 sm:right-0 sm:w-80 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        >
          {url ? (
            <ShareLink
              url={url}
              inClipboard={inClipboard}
              audience={audience}
              links={links}
              busy={state.kind === 'busy'}
              onChange={(chosen) => {
                // Shown at once (the server's answer confirms it); a change while one is on its way waits for it.
                setAudience(chosen);
                void share(chosen);
              }}
            />
          ) : (
            links === 'off' && <p className="text-zinc-700 dark:text-zinc-300">Share links are off on this Runpad: share with people or groups.</p>
          )}
          <ShareWithPeople conversationId={conversationId} />
          <div className="mt-2 flex justify-end gap-2">
            {url && (
              <button type="button" onClick={revoke} className="rounded px-1.5 py-0.5 underline hover:bg-zinc-100 dark:hover:bg-zinc-800">
                Revoke
              </button>
            )}
            <button
              type="button"
              onClick={() => {
                setPanelOpen(false);
                button.current?.focus();
              }}
              className="rounded px-1.5 py-0.5 underline hover:bg-zinc-100 dark:hover:bg-zinc-800"
            >
              Close
            </button>
          </div>
        </div>
      )}
      {state.kind === 'error' && (
        <span role="alert" className="ml-2 text-red-700 max-sm:absolute max-sm:inset-x-2 max-sm:top-full max-sm:z-30 max-sm:mt-1 max-sm:rounded max-sm:bg-white max-sm:p-2 max-sm:shadow dark:text-red-400 max-sm:dark:bg-zinc-900">
          {state.message}
        </span>
      )}
    </div>
  );
}
