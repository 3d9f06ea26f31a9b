'use client';

import { expectedDeviceFile, toDataFiles, type DataFileLocation } from '@/lib/files/data-file';
import { MissingFilesProvider, type MissingFiles } from '@/components/files/drop-same-file';
import { z } from 'zod';
import { answerMetadataOf } from '@/lib/messages/answer-metadata';
import { readJsonAs } from '@/lib/http/error-body.client';
import { redirectPath } from '@/lib/http/redirect-target';
import type { UIMessage } from 'ai';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { BlobAccessProvider, useBlobUrl } from '@/components/outputs/blob-url';
import { ThemeToggle } from '@/components/ui/theme-toggle';
import type { TargetConfig } from '@/lib/targets/engine';
import { isCodePartType } from '@/lib/targets/registry';
import { traceConversation } from '@/lib/trace';
import { scriptLanguage } from '@/lib/notebook/script-language';
import { ExportMenu } from './export-menu';
import { MessageView } from './message-view';
import { RerunMarksProvider } from './rerun-mark';
import { RerunPanel } from './rerun-panel';
import { RunStore } from './run-store';
import { useShareRerun } from './use-share-rerun';

/** A file the share grants: written into /data/ for a re-run. */
export type SharedFile = { name: string; sha256: string; location: DataFileLocation; size: number; salts: readonly string[] };

type SharedConversationProps = {
  /** A public link's snapshot, or a conversation shared to this reader (read at /c/<id>, its files through it). */
  source: { share: string } | { conversation: string };
  title: string | null;
  messages: UIMessage[];
  sharedAt: string;
  files: SharedFile[];
  /** The configuration the targets read, for "Re-run in my browser". */
  config: TargetConfig;
};

export function SharedConversation(props: SharedConversationProps) {
  // Blobs (figures, datasets) are read through the share, for the page and for a re-run alike.
  return (
    <BlobAccessProvider value={props.source}>
      <SharedConversationView {...props} />
    </BlobAccessProvider>
  );
}

function SharedConversationView({ source, title, messages, sharedAt, files, config }: SharedConversationProps) {
  const shareId = 'share' in source ? source.share : null;
  const runs = useMemo(() => new RunStore(), []);
  const blobUrl = useBlobUrl();
  // A file kept on the owner's device is not served: the re-run says so, naming it (dataset-missing, on-device).
  const dataFiles = toDataFiles(files, blobUrl);
  const rerun = useShareRerun({ messages, files: dataFiles, config, blobUrl });
  // The same file dropped on a failed cell is kept on this reader's device (never uploaded), and the re-run starts again.
  const startRerun = rerun.start;
  const missingFiles = useMemo<MissingFiles>(
    () => ({
      expected: (name) => expectedDeviceFile(files, name),
      onKept: () => void startRerun(),
    }),
    [files, startRerun],
  );
  const hasCells = useMemo(() => messages.some((message) => message.role === 'assistant' && message.parts.some((part) => isCodePartType(part.type))), [messages]);
  // The same traces as the owner's page: computed from the same stored messages.
  const traces = useMemo(() => traceConversation(messages), [messages]);
  const script = useMemo(() => scriptLanguage(messages), [messages]);
  const [forking, setForking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const router = useRouter();
  const fork = async () => {
    setForking(true);
    setError(null);
    // A link's snapshot is copied through the link; a conversation shared with this reader, through it.
    const response = await fetch(shareId ? `/api/shares/${shareId}/fork` : `/api/conversations/${'conversation' in source ? source.conversation : ''}/fork`, { method: 'POST' });
    if (!response.ok) {
      setForking(false);
      setError(shareId ? 'This conversation could not be copied; the link may have been revoked.' : 'This conversation could not be copied; it may no longer be shared with you.');
      return;
    }
    const body = await readJsonAs(response, z.object({ path: z.string().startsWith('/') }));
    if (!body) {
      setForking(false);
      setError('The copy was made, but the server’s answer was not understood; find it in your conversations.');
      return;
    }
    router.push(redirectPath(body.path, window.location.origin));
  };
  return (
    <RerunMarksProvider value={rerun.state.phase === 'idle' ? null : rerun.state.cells}>
      <MissingFilesProvider value={missingFiles}>
      <div className="flex min-h-dvh flex-col">
        <header className="flex flex-wrap items-center gap-3 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
          {/* The title over its date on a phone (a row of their own, the controls on the next); side by side on a desktop. */}
          <div className="flex min-w-0 grow basis-full flex-col sm:basis-0 sm:flex-row sm:items-center sm:gap-3">
            <h1 className="min-w-0 truncate text-sm font-semibold sm:flex-1">{title ?? 'Shared conversation'}</h1>
            <span className="text-xs text-zinc-600 dark:text-zinc-400">
              {shareId ? 'Shared snapshot' : 'Shared with you to read'} · {new Date(sharedAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC
            </span>
          </div>
          <button type="button" onClick={fork} disabled={forking} className="rounded-lg bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-50">
            {forking ? 'Copying…' : 'Continue in my own chat'}
          </button>
          <ExportMenu basePath={shareId ? `/api/shares/${shareId}` : `/api/conversations/${'conversation' in source ? source.conversation : ''}`} subject="shared conversation" script={script} />
          <ThemeToggle />
        </header>
        {/* Under the header, not in it: the header stays one row on a desktop and two on a phone. */}
        <p className="border-b border-zinc-200 px-4 py-1 text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-400" data-testid="shared-model-sees">
          {modelSeesWords(messages)}
        </p>
        {hasCells && <RerunPanel state={rerun.state} engines={rerun.engines} onStart={() => void rerun.start()} onStop={rerun.stop} />}
        {error && (
          <p role="alert" className="mx-auto mt-3 max-w-3xl px-4 text-sm text-red-700">
            {error}
          </p>
        )}
        <main className="mx-auto w-full max-w-3xl flex-1 space-y-6 px-4 py-6">
          {messages.map((message) => (
            <MessageView key={message.id} message={message} runs={runs} streaming={false} trace={traces.get(message.id)} />
          ))}
        </main>
      </div>
      </MissingFilesProvider>
    </RerunMarksProvider>
  );
}

/** The policy the answers were written under (each answer's metadata.modelSees; absent: outputs). */
function modelSeesWords(messages: ReadonlyArray<{ role: string; metadata?: unknown }>): string {
  const answers = messages.filter((m) => m.role === 'assistant').map((m) => answerMetadataOf(m.metadata).modelSees ?? 'outputs');
  const schema = answers.filter((policy) => policy === 'schema').length;
  if (schema === 0) return 'The model saw the outputs of the code and of the files';
  if (schema === answers.length) return 'The model saw only the shape of the data (names, types, sizes)';
  return `The model saw only the shape of the data for ${schema} of ${answers.length} answers, the outputs for the others`;
}
