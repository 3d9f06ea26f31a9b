'use client';

/**
 * The open conversation: its pieces, each with one job, put together. The runs (use-chat-runs.ts:
 * the runs controller, the pipeline, Stop's signal), the conversation's files
 * (use-conversation-files.ts), the conversation with the model and its tool calls
 * (use-chat-session.ts, run-tool-call.ts), restore (use-restore.ts), what the person does
 * (use-chat-actions.ts), the panels and name (use-chat-panels.ts), and the footer (chat-footer.tsx).
 */
import type { UIMessage } from 'ai';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { EngineStart } from '@/lib/targets/engine';
import type { ProjectDatasets } from '@/lib/files/data-file';
import { scriptLanguage } from '@/lib/notebook/script-language';
import type { ClientConfig } from '@/lib/client-config';
import { DropZone } from '@/components/files/drop-zone';
import { MissingFilesProvider } from '@/components/files/drop-same-file';
import { DatasetsDialog } from '@/components/files/datasets-dialog';
import { FileChips } from '@/components/files/file-chips';
import { ChatHeader } from './chat-header';
import { ChatFooter } from './chat-footer';
import { pickModel } from './picked-models';
import { MessageList } from './message-list';
import { ModelSentTotal } from './model-saw-dialog';
import { Sidebar } from './sidebar';
import { KernelContext } from './kernel-context';
import { SettingsDialog } from './settings-dialog';
import { RunStore } from './run-store';
import { RunHold, useHeld } from './run-hold';
import { useCellRuns } from './use-cell-runs';
import { usePrefetchImports } from './use-prefetch-imports';
import { useStickToBottom } from './use-stick-to-bottom';
import { useRestore, type RestoreApi } from './use-restore';
import { useConversationSync } from './use-conversation-sync';
import { useChatRuns } from './use-chat-runs';
import { useConversationFiles, type ConversationFile } from './use-conversation-files';
import { useChatSession } from './use-chat-session';
import { useChatActions } from './use-chat-actions';
import { useChatPanels } from './use-chat-panels';

export type { ConversationFile };

type ChatProps = {
  conversationId: string;
  initialMessages: UIMessage[];
  initialFiles: ConversationFile[];
  title: string | null;
  config: ClientConfig;
  /** A signed-in account, not a guest (Settings does not ask it to sign in). */
  signedIn: boolean;
  /** The model this conversation answers with (its own, or the one used last for a new one). */
  initialModelId: string;
  /**
   * When the engines (Python) start: with the page for a new conversation (a question is coming),
   * when first needed for a stored one opened to be read (a run, Reload them, the person typing).
   */
  engineStart?: EngineStart;
  /** The project a new conversation starts in (its instructions, model and policy apply; the server checks membership). */
  projectId?: string;
  /** The datasets of the conversation's project, under /data beside its own files. */
  projectDatasets?: ProjectDatasets | null;
};

export function Chat({ conversationId, initialMessages, initialFiles, title, config, signedIn, initialModelId, engineStart = 'now', projectId, projectDatasets = null }: ChatProps) {
  // The picked model goes with every request; the server checks it and stores it with the conversation.
  const [modelId, setModelId] = useState(initialModelId);
  useEffect(() => pickModel(conversationId, modelId), [conversationId, modelId]);
  const runs = useMemo(() => new RunStore(), []);
  const runHold = useMemo(() => new RunHold<UIMessage[]>(), []);
  const { uploads, dataFiles, missingFiles } = useConversationFiles(conversationId, initialFiles, projectDatasets, config.uploadFileBytes);
  const stoppedRef = useRef(false);
  const composerRef = useRef<HTMLTextAreaElement>(null);
  const scrollRef = useRef<HTMLElement>(null);
  const { atBottom, jumpToLatest } = useStickToBottom(scrollRef);
  // The latest messages, for callbacks that outlive a render (tool calls, restore).
  const messagesRef = useRef<UIMessage[]>(initialMessages);
  const restoreRef = useRef<RestoreApi | null>(null);
  const syncRef = useRef<((options?: { afterFailure?: boolean }) => Promise<void>) | null>(null);
  const { controller, engines, runTimeoutMs, packageSources, pipelineRef, runCode, signal, stopRuns, restartEngines, startEngines } = useChatRuns({ conversationId, config, engineStart, files: dataFiles, restoreRef });
  const { chat, stored } = useChatSession({ conversationId, initialMessages, projectId, runs, runHold, stoppedRef, messagesRef, pipelineRef, signal, syncRef });
  const { messages, status, error, setMessages } = chat;
  const shownMessages = useHeld(messages, runHold);
  useEffect(() => {
    messagesRef.current = messages;
  }, [messages]);
  const restore = useRestore(controller, messages, messagesRef, {
    files: dataFiles,
    timeoutMs: runTimeoutMs,
    mayAutoRestore: () => controller?.fresh() === true,
  });
  useEffect(() => {
    restoreRef.current = restore;
  });
  const panels = useChatPanels({ title, messages, status, stored });
  usePrefetchImports(messages, controller);

  const exportScript = useMemo(() => scriptLanguage(messages), [messages]);
  const runCell = useCellRuns({ conversationId, setMessages, runCode });
  const kernelContext = useMemo(() => ({ ready: controller !== null, runCell }), [controller, runCell]);
  const busy = status === 'submitted' || status === 'streaming' || engines.some((engine) => engine.state.kind === 'busy');
  const sync = useConversationSync({ conversationId, status, saved: stored, busy, messages, setMessages });
  useEffect(() => {
    syncRef.current = sync;
  }, [sync]);
  const actions = useChatActions({ conversationId, chat, takeAttachments: uploads.takeAttachments, stoppedRef, messagesRef, composerRef, stopRuns, busy });
  // Memoised with the composer and the settings dialog: React writes an input's name and type on
  // every render of it, and those writes alone made each run's start need a frame of its own.
  const attachments = useMemo(() => <FileChips uploads={uploads.uploads} onRemove={uploads.remove} onSwitch={uploads.switchLocation} />, [uploads.uploads, uploads.remove, uploads.switchLocation]);

  return (
    <KernelContext.Provider value={kernelContext}>
    <MissingFilesProvider value={missingFiles}>
    <div className="flex h-dvh">
      <Sidebar currentId={conversationId} refreshKey={panels.sidebar.refreshKey} open={panels.sidebar.open} onClose={panels.sidebar.onClose} onCurrentTitle={panels.setListedTitle} currentName={panels.shownName} onOpenDatasets={panels.datasets.onOpen} />
      <DatasetsDialog open={panels.datasets.open} onClose={panels.datasets.onClose} conversationId={conversationId} onAdd={uploads.addExisting} />
      <DropZone onFiles={uploads.add}>
      <ChatHeader
        conversationId={conversationId}
        saved={stored}
        title={panels.shownName}
        config={config}
        modelId={modelId}
        onPickModel={setModelId}
        modelPickDisabled={status === 'submitted' || status === 'streaming'}
        engines={engines}
        onRestart={restartEngines}
        onOpenSidebar={panels.sidebar.onOpen}
        onOpenSettings={panels.settings.onOpen}
        scriptLanguage={exportScript}
      />
      <SettingsDialog open={panels.settings.open} onClose={panels.settings.onClose} maxTimeoutMs={config.maxRunTimeoutMs} version={config.version} operatorModelSees={config.modelSees} signedIn={signedIn} />
      <main ref={scrollRef} className="relative min-h-0 flex-1 overflow-y-auto" id="conversation">
        <MessageList
          messages={shownMessages}
          runs={runs}
          status={status}
          error={error}
          onRetry={actions.retry}
          onRegenerate={actions.regenerateAnswer}
          onContinue={actions.continueAnswer}
          onEditMessage={actions.editMessage}
          isDemo={config.isDemo}
          packagesUnavailable={packageSources.python === 'unreachable'}
          onExample={actions.send}
          onCheck={actions.sendFollowUp}
          conversationId={conversationId}
        />
        {messages.some((m) => m.role === 'assistant') && <ModelSentTotal conversationId={conversationId} refreshKey={status === 'ready' || status === 'error' ? messages.length : -1} />}
      </main>
      <ChatFooter
        atBottom={atBottom}
        onJumpToLatest={jumpToLatest}
        packageSources={packageSources}
        config={config}
        stopFailed={actions.stopFailed}
        onDismissStopFailed={actions.dismissStopFailed}
        restore={restore}
        projectDatasets={projectDatasets}
        busy={busy}
        composerRef={composerRef}
        canSend={!uploads.busy}
        onSend={actions.send}
        onStop={actions.stopAll}
        onFiles={uploads.add}
        onTyping={startEngines}
        attachments={attachments}
      />
      </DropZone>
    </div>
    </MissingFilesProvider>
    </KernelContext.Provider>
  );
}
