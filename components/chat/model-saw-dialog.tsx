'use client';

import { useEffect, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { formatBytes } from '@/lib/format';
import { modelInputsResponseSchema } from '@/lib/messages/model-input-schema';
import type { z } from 'zod';

type Loaded = z.infer<typeof modelInputsResponseSchema>;

const POLICY_WORDS = {
  outputs: 'everything the code printed or showed, and the first rows of dropped files',
  schema: 'only the shape of the data: column names and types, sizes, that a figure was made, errors without values',
} as const;

/** Who got the requests on a server that offers only its built-in model (the offline demo). */
const BUILT_IN = 'the built-in demo model, which runs on this server';

/**
 * "What the model saw" for one answer: every request the server sent the model provider while
 * writing it, text and images as sent with their byte counts, and the conversation's running total.
 */
export function ModelSawDialog({ open, onClose, conversationId, answerId }: { open: boolean; onClose: () => void; conversationId: string; answerId: string }) {
  const [state, setState] = useState<{ loaded: Loaded } | { error: string } | null>(null);
  useEffect(() => {
    if (!open) return;
    const abort = new AbortController();
    fetch(`/api/conversations/${conversationId}/model-inputs?answer=${encodeURIComponent(answerId)}`, { signal: abort.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`The server answered ${response.status}: reload the page and try again.`);
        setState({ loaded: modelInputsResponseSchema.parse(await response.json()) });
      })
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setState({ error: error instanceof Error ? error.message : String(error) });
      });
    return () => abort.abort();
  }, [open, conversationId, answerId]);
  return (
    <Dialog open={open} onClose={onClose} title="What the model saw" description={state && 'loaded' in state && state.loaded.builtInModel ? `Exactly what this server gave ${BUILT_IN} while writing this answer; nothing left this server.` : 'Exactly what this server sent the model provider while writing this answer.'}>
      <div className="max-h-[70vh] space-y-3 overflow-auto text-sm" data-testid="model-saw">
        {state === null && <p>Loading…</p>}
        {state && 'error' in state && <p role="alert">{state.error}</p>}
        {state && 'loaded' in state && <Loaded loaded={state.loaded} />}
      </div>
    </Dialog>
  );
}

function Loaded({ loaded }: { loaded: Loaded }) {
  const { totals, inputs } = loaded;
  return (
    <>
      <p>
        This conversation sends the model {POLICY_WORDS[loaded.modelSees]}
        {loaded.operatorModelSees === 'schema' ? ' (set by this server)' : ''}.
      </p>
      <p data-testid="model-saw-total">
        Sent in this conversation so far: {totals.requests} request{totals.requests === 1 ? '' : 's'}, {formatBytes(totals.textBytes)} of text, {formatBytes(totals.imageBytes)} of images.
      </p>
      {inputs.length === 0 && <p>Nothing was recorded for this answer (it was written before this record was kept).</p>}
      {inputs.map((input, index) => (
        <section key={input.id} className="space-y-2 border-t border-zinc-200 pt-2 dark:border-zinc-700" data-testid="model-input">
          <h3 className="font-medium">
            Request {index + 1} of {inputs.length}
            {input.content.purpose === 'title' ? ' (the conversation’s title)' : ''}: {formatBytes(input.textBytes)} of text, {formatBytes(input.imageBytes)} of images ({input.modelSees})
          </h3>
          <details>
            <summary>System prompt ({formatBytes(new TextEncoder().encode(input.content.system).length)})</summary>
            <pre className="whitespace-pre-wrap text-xs">{input.content.system}</pre>
          </details>
          {input.content.messages.map((message, m) => (
            <div key={m}>
              <div className="text-xs font-medium uppercase text-zinc-500">{message.role}</div>
              {message.items.map((item, i) =>
                item.kind === 'text' ? (
                  <div key={i}>
                    <div className="text-xs text-zinc-500">
                      {item.label} · {formatBytes(new TextEncoder().encode(item.text).length)}
                    </div>
                    <pre className="whitespace-pre-wrap text-xs" data-testid="model-input-text">{item.text}</pre>
                  </div>
                ) : (
                  <div key={i} className="text-xs">
                    {item.label} · {item.mediaType} · {formatBytes(item.bytes)}
                    {/* eslint-disable-next-line @next/next/no-img-element -- a stored blob of this conversation */}
                    <img src={`/api/blobs/${item.sha256}`} alt={`image sent to the model (${item.mediaType})`} className="mt-1 max-h-40" />
                  </div>
                ),
              )}
            </div>
          ))}
        </section>
      ))}
    </>
  );
}

/**
 * The conversation's running total of what was sent to the model provider, read again after each
 * turn (`refreshKey` changes when one ends; negative while one is under way).
 */
export function ModelSentTotal({ conversationId, refreshKey }: { conversationId: string; refreshKey: number }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    if (refreshKey < 0) return;
    const abort = new AbortController();
    fetch(`/api/conversations/${conversationId}/model-inputs`, { signal: abort.signal })
      .then(async (response) => (response.ok ? setLoaded(modelInputsResponseSchema.parse(await response.json())) : setLoaded(null)))
      .catch(() => undefined);
    return () => abort.abort();
  }, [conversationId, refreshKey]);
  if (!loaded || loaded.totals.requests === 0) return null;
  const { totals } = loaded;
  return (
    <p className="mx-auto max-w-3xl px-4 pb-4 text-xs text-zinc-500 dark:text-zinc-400" data-testid="model-sent-total">
      {loaded.builtInModel ? `Given to ${BUILT_IN} (nothing was sent to a model provider) in this conversation:` : 'Sent to the model provider in this conversation:'} {formatBytes(totals.textBytes)} of text, {formatBytes(totals.imageBytes)} of images in {totals.requests} request{totals.requests === 1 ? '' : 's'}
      {loaded.modelSees === 'schema' ? ' (only the shape of the data)' : ''}.
    </p>
  );
}
