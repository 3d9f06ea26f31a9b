'use client';

/**
 * Under the conversation: Jump to latest, the notices (a package source that does not answer, a
 * Stop that did not reach the server), restore's banner, the project's datasets, the composer and the line saying where
 * code runs.
 */
import type { ReactNode, RefObject } from 'react';
import type { ClientConfig } from '@/lib/client-config';
import type { ProjectDatasets } from '@/lib/files/data-file';
import { ProjectDatasetsNote } from '@/components/files/project-datasets-note';
import { Composer } from './composer';
import { PackageSourceNotice } from './package-source-notice';
import { sourceHost } from './package-source-words';
import { RestoreBanner } from './restore-banner';
import { StopFailedNotice } from './stop-failed-notice';
import type { PackageSources } from './use-package-source';
import type { RestoreApi } from './use-restore';

type ChatFooterProps = {
  atBottom: boolean;
  onJumpToLatest: () => void;
  packageSources: PackageSources;
  config: Pick<ClientConfig, 'packageBaseUrl' | 'rPackageRepoUrl'>;
  stopFailed: string | null;
  onDismissStopFailed: () => void;
  restore: RestoreApi;
  /** The conversation's project's datasets, named above the composer. */
  projectDatasets: ProjectDatasets | null;
  busy: boolean;
  composerRef: RefObject<HTMLTextAreaElement | null>;
  canSend: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  onFiles: (files: File[]) => void;
  onTyping: () => void;
  attachments: ReactNode;
};

export function ChatFooter({ atBottom, onJumpToLatest, packageSources, config, stopFailed, onDismissStopFailed, restore, projectDatasets, busy, composerRef, canSend, onSend, onStop, onFiles, onTyping, attachments }: ChatFooterProps) {
  return (
    <div className="relative mx-auto w-full max-w-3xl px-3 pb-3 sm:px-4">
      {!atBottom && (
        <button
          type="button"
          onClick={onJumpToLatest}
          className="absolute -top-12 left-1/2 -translate-x-1/2 rounded-full border border-zinc-300 bg-white px-3 py-1 text-sm shadow dark:border-zinc-700 dark:bg-zinc-900"
        >
          Jump to latest
        </button>
      )}
      <PackageSourceNotice
        key={JSON.stringify(packageSources)}
        unreachable={{
          python: packageSources.python === 'unreachable' ? sourceHost(config.packageBaseUrl, 'this site’s package mirror') : undefined,
          r: packageSources.r === 'unreachable' ? sourceHost(config.rPackageRepoUrl, 'this site’s R package mirror') : undefined,
        }}
      />
      {stopFailed && <StopFailedNotice message={stopFailed} onDismiss={onDismissStopFailed} />}
      <RestoreBanner restore={restore} busy={busy} />
      {projectDatasets && <ProjectDatasetsNote datasets={projectDatasets} />}
      <Composer ref={composerRef} busy={busy} canSend={canSend} onSend={onSend} onStop={onStop} onFiles={onFiles} onTyping={onTyping} attachments={attachments} />
      <p className="mt-1 text-center text-xs text-zinc-500 dark:text-zinc-400">Code runs in your browser<span className="max-sm:hidden">, in sandboxed workers: Python, SQL (DuckDB), R, Graphviz and JavaScript</span>.</p>
    </div>
  );
}
