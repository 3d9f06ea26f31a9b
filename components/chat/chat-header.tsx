'use client';

import type { KernelState } from '@/lib/runtime/kernel';
import type { ClientConfig } from '@/lib/client-config';
import { KernelStatus } from './kernel-status';
import { ThemeToggle } from '@/components/ui/theme-toggle';
import { ShareButton } from './share-button';
import { ExportMenu } from './export-menu';

type ChatHeaderProps = {
  conversationId: string;
  saved: boolean;
  title: string | null;
  config: ClientConfig;
  kernelState: KernelState;
  onRestart: () => void;
  onOpenSidebar: () => void;
  onOpenSettings: () => void;
};

export function ChatHeader({ conversationId, saved, title, config, kernelState, onRestart, onOpenSidebar, onOpenSettings }: ChatHeaderProps) {
  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
      <button type="button" onClick={onOpenSidebar} className="rounded px-1.5 py-0.5 text-sm md:hidden" aria-label="Open conversations">
        ☰
      </button>
      <h1 className="min-w-0 flex-1 truncate text-sm font-semibold">{title ?? 'New conversation'}</h1>
      <span
        data-testid="model-label"
        className={`rounded-full px-2 py-0.5 text-xs ${config.isDemo ? 'bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200' : 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300'}`}
        title={config.isDemo ? 'No model is configured: set OPENAI_API_KEY or OPENAI_BASE_URL to use a real model.' : undefined}
      >
        {config.isDemo ? 'Offline demo model' : config.modelLabel}
      </span>
      <KernelStatus state={kernelState} onRestart={onRestart} />
      <ShareButton conversationId={conversationId} disabled={!saved} />
      {saved && <ExportMenu basePath={`/api/conversations/${conversationId}`} />}
      <button type="button" onClick={onOpenSettings} className="rounded px-1.5 py-0.5 text-xs underline hover:bg-zinc-100 dark:hover:bg-zinc-800">
        Settings
      </button>
      <ThemeToggle />
    </header>
  );
}
