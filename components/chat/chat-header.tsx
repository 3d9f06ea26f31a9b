'use client';

import { memo } from 'react';
import type { EngineStatus } from '@/lib/targets/engine';
import type { ClientConfig } from '@/lib/client-config';
import { KernelStatus } from './kernel-status';
import { ThemeToggle } from '@/components/ui/theme-toggle';
import { ShareButton } from './share-button';
import { ExportMenu } from './export-menu';
import { ModelPicker } from './model-picker';
import type { ScriptLanguage } from '@/lib/notebook/script-language';

type ChatHeaderProps = {
  conversationId: string;
  saved: boolean;
  title: string | null;
  config: ClientConfig;
  modelId: string;
  onPickModel: (id: string) => void;
  modelPickDisabled: boolean;
  /** The page's engines' statuses (the interpreter's). */
  engines: readonly EngineStatus[];
  onRestart: () => void;
  onOpenSidebar: () => void;
  onOpenSettings: () => void;
  /** The script the conversation downloads as. */
  scriptLanguage: ScriptLanguage;
};

export const ChatHeader = memo(function ChatHeader({ conversationId, saved, title, config, modelId, onPickModel, modelPickDisabled, engines, onRestart, onOpenSidebar, onOpenSettings, scriptLanguage }: ChatHeaderProps) {
  // One row at every width. Below lg, Share, Settings and Theme are icons (their names stay, for
  // screen readers); on phones (390 px) the model label goes and the interpreter's status shows
  // as its dot (the words stay in its live region); beside the sidebar (md to lg) the label goes.
  const iconButton = 'flex items-center gap-1 whitespace-nowrap rounded px-1.5 py-0.5 text-xs underline hover:bg-zinc-100 dark:hover:bg-zinc-800';
  return (
    <header className="relative flex flex-wrap items-center gap-x-1 gap-y-1 border-b sm:gap-x-2 border-zinc-200 px-2 py-2 sm:px-4 lg:gap-x-4 dark:border-zinc-800 max-sm:[&_[data-testid=kernel-status]]:w-2 max-sm:[&_[data-testid=kernel-status]]:overflow-hidden max-sm:[&_[data-testid=kernel-status]]:whitespace-nowrap max-sm:[&_[data-testid=kernel-status]>span]:shrink-0">
      <button type="button" onClick={onOpenSidebar} className="rounded px-1.5 py-0.5 text-sm md:hidden" aria-label="Open conversations">
        ☰
      </button>
      <h1 className="min-w-[6rem] flex-1 truncate text-sm font-semibold" title={title ?? undefined}>{title ?? 'New conversation'}</h1>
      {config.models.length > 1 ? (
        <ModelPicker models={config.models} value={modelId} onChange={onPickModel} disabled={modelPickDisabled} />
      ) : (
        <span
          data-testid="model-label"
          className={`whitespace-nowrap rounded-full px-2 py-0.5 text-xs max-sm:hidden md:max-lg:hidden ${config.isDemo ? 'bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200' : 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300'}`}
          title={config.isDemo ? 'No model is configured: set OPENAI_API_KEY or OPENAI_BASE_URL to use a real model.' : undefined}
        >
          {config.isDemo ? 'Offline demo model' : config.modelLabel}
        </span>
      )}
      {engines.map((status) => (
        <KernelStatus key={status.name} status={status} onRestart={onRestart} />
      ))}
      <ShareButton conversationId={conversationId} disabled={!saved} links={config.publicShares} />
      {saved && <ExportMenu basePath={`/api/conversations/${conversationId}`} script={scriptLanguage} withData />}
      <button type="button" onClick={onOpenSettings} className={iconButton}>
        <svg aria-hidden viewBox="0 0 24 24" className="size-4 lg:hidden" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0" />
          <circle cx="16" cy="6" r="2" />
          <circle cx="10" cy="12" r="2" />
          <circle cx="18" cy="18" r="2" />
        </svg>
        <span className="max-lg:sr-only">Settings</span>
      </button>
      <ThemeToggle />
    </header>
  );
});
