'use client';

import { useId } from 'react';
import type { ClientConfig } from '@/lib/client-config';

export type LinkAudience = 'anyone' | 'signed_in';

/** What the panel says of a link, by whom it opens for. */
const AUDIENCE_WORDS: Record<LinkAudience, string> = {
  anyone: 'Anyone with the link sees this conversation as it is now; Share again updates it.',
  signed_in: 'People signed in to this Runpad who have the link see this conversation as it is now (anyone else is asked to sign in first); Share again updates it.',
};

/**
 * The link in the Share panel: what it shows to whom, the link itself (selected when focused, to
 * copy), and whom it opens for.
 */
export function ShareLink({ url, inClipboard, audience, links, busy, onChange }: { url: string; inClipboard: boolean | null; audience: LinkAudience; links: ClientConfig['publicShares']; busy: boolean; onChange: (audience: LinkAudience) => void }) {
  return (
    <>
      <p className="text-zinc-700 dark:text-zinc-300">
        {inClipboard ? 'Link copied. ' : inClipboard === false ? 'Copy this link: ' : ''}
        {AUDIENCE_WORDS[audience]}
      </p>
      <input
        aria-label="Share link"
        readOnly
        value={url}
        onFocus={(event) => event.currentTarget.select()}
        className="mt-2 block w-full rounded border border-zinc-300 bg-transparent px-1.5 py-1 font-mono dark:border-zinc-600"
      />
      <ShareLinkAudience audience={audience} links={links} busy={busy} onChange={onChange} />
    </>
  );
}

/**
 * Who can open the link: anyone with it, or signed-in people of this Runpad only. Two radio
 * buttons (arrow keys move between them; never disabled while a change is saved, so focus stays); a link for anyone is not offered where the operator
 * allows only links for signed-in people (RUNPAD_PUBLIC_SHARES=signed-in).
 */
function ShareLinkAudience({ audience, links, busy, onChange }: { audience: LinkAudience; links: ClientConfig['publicShares']; busy: boolean; onChange: (audience: LinkAudience) => void }) {
  const name = useId();
  const option = (value: LinkAudience, label: string, note?: string) => (
    <label className="flex items-center gap-1.5">
      <input type="radio" name={name} value={value} checked={audience === value} disabled={value === 'anyone' && links !== 'on'} onChange={() => busy || onChange(value)} />
      <span>
        {label}
        {note && <span className="text-zinc-600 dark:text-zinc-400"> {note}</span>}
      </span>
    </label>
  );
  return (
    <fieldset className="mt-2 space-y-0.5">
      <legend className="text-zinc-700 dark:text-zinc-300">Who can open the link</legend>
      {option('anyone', 'Anyone with the link', links === 'on' ? undefined : '(off on this Runpad)')}
      {option('signed_in', 'Signed-in people of this Runpad only')}
    </fieldset>
  );
}
