'use client';

import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithToolCalls, type UIMessage } from 'ai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { expectedDeviceFile, withProjectDatasets, type DataFile, type DataFileLocation, type ProjectDatasets } from '@/lib/files/data-file';
import { runOnTarget, runToolCall, type CellRun, type PipelineOptions } from '@/lib/targets/pipeline.client';
import { readRunPart } from '@/lib/targets/run-part';
import type { Target } from '@/lib/targets/registry';
import { useEngineStatuses, useRunsController } from '@/lib/targets/use-runs.client';
import { NO_RUNNERS } from '@/lib/targets/runs.client';
import type { EngineStart } from '@/lib/targets/engine';
import { lastPackageSources, rememberPackageSources, usePackageSources } from './use-package-source';
import { PackageSourceNotice } from './package-source-notice';
import { StopFailedNotice } from './stop-failed-notice';
import { stopUpstream } from './stop-upstream';
import { sourceHost } from './package-source-words';
import { scriptLanguage } from '@/lib/notebook/script-language';
import type { ClientConfig } from '@/lib/client-config';
import type { Attachment } from '@/lib/messages/attachment';
import { DropZone } from '@/components/files/drop-zone';
import { MissingFilesProvider, type MissingFiles } from '@/components/files/drop-same-file';
import { DatasetsDialog } from '@/components/files/datasets-dialog';
import { ProjectDatasetsNote } from '@/components/files/project-datasets-note';
import { FileChips } from '@/components/files/file-chips';
import { conversationFileStore } from '@/components/files/store-output-files';
import { useUploads } from '@/components/files/use-uploads';
import { Composer } from './composer';
import { ChatHeader } from './chat-header';
import { pickedModel, pickModel } from './picked-models';
import { MessageList } from './message-list';
import { ModelSentTotal } from './model-saw-dialog';
import { preloadMarkdown } from './markdown';
import { Sidebar } from './sidebar';
import { KernelContext } from './kernel-context';
import { SettingsDialog } from './settings-dialog';
import { RunStore } from './run-store';
import { RunHold, useHeld } from './run-hold';
import { currentSettings } from './use-settings';
import { saveCellRun, useCellRuns } from './use-cell-runs';
import { usePrefetchImports } from './use-prefetch-imports';
import { useStickToBottom } from './use-stick-to-bottom';
import { useRestore, type RestoreApi } from './use-restore';
import { RestoreBanner } from './restore-banner';
import { useConversationSync } from './use-conversation-sync';
import { RunProgressSaver } from './run-progress';
import { questionText, shownTitle } from '@/lib/messages/shown-title';

export type ConversationFile = Pick<Attachment, 'name' | 'sha256' | 'size' | 'mediaType'> & { location: DataFileLocation; salts?: readonly string[] };

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

/** Until a title is generated, the first question names the conversation (lib/messages/shown-title.ts). */
function firstQuestion(messages: UIMessage[]): string | null {
  const first = messages.find((m) => m.role === 'user');
  return first ? questionText(first.parts) : null;
}

export function Chat({ conversationId, initialMessages, initialFiles, title, config, signedIn, initialModelId, engineStart = 'now', projectId, projectDatasets = null }: ChatProps) {
  // The picked model goes with every request; the server checks it and stores it with the conversation.
  const [modelId, setModelId] = useState(initialModelId);
  useEffect(() => pickModel(conversationId, modelId), [conversationId, modelId]);
  // The page's runners and engines (lib/targets/runs.client.ts), made once the page is mounted.
  const controller = useRunsController(config, engineStart);
  const engines = useEngineStatuses(controller, engineStart);
  // The markdown renderer loads once the engines have started, not beside them (components/chat/markdown.tsx).
  const enginesStarting = engines.some((engine) => engine.state.kind === 'starting');
  useEffect(() => {
    if (!enginesStarting) preloadMarkdown();
  }, [enginesStarting]);
  const controllerRef = useRef(controller);
  useEffect(() => {
    controllerRef.current = controller;
  }, [controller]);
  const runs = useMemo(() => new RunStore(), []);
  const runHold = useMemo(() => new RunHold<UIMessage[]>(), []);
  const [files, setFiles] = useState<ConversationFile[]>(initialFiles);
  const addStoredFile = useCallback(
    (file: Attachment) => setFiles((list) => [...list.filter((f) => f.name !== file.name), { name: file.name, sha256: file.sha256, size: file.size, mediaType: file.mediaType, location: file.location ?? 'account' }]),
    [],
  );
  const uploads = useUploads(conversationId, addStoredFile);
  // The conversation's files, and its project's datasets, as every engine should see them under
  // /data/; a file still being kept is read in place from the dropped File meanwhile, unless its
  // name is taken (the server renames it).
  const dataFiles = useMemo(() => withProjectDatasets(files, projectDatasets), [files, projectDatasets]);
  const dataFilesRef = useRef<DataFile[]>([]);
  const { inPlace } = uploads;
  useEffect(() => {
    const listed = dataFiles.files;
    dataFilesRef.current = [...listed, ...inPlace.filter((file) => !listed.some((other) => other.name === file.name))];
  }, [dataFiles, inPlace]);
  // A failed cell's "Drop the same file to continue" checks a dropped file against this conversation's (or its project's).
  const missingFiles = useMemo<MissingFiles>(
    () => ({
      expected: (name) => expectedDeviceFile(dataFiles.listed, name),
    }),
    [dataFiles],
  );
  const stoppedRef = useRef(false);
  const composerRef = useRef<HTMLTextAreaElement>(null);
  const scrollRef = useRef<HTMLElement>(null);
  const { atBottom, jumpToLatest } = useStickToBottom(scrollRef);

  const runTimeoutMs = useCallback(() => Math.min(currentSettings().timeoutMs, config.maxRunTimeoutMs), [config.maxRunTimeoutMs]);
  // The latest messages, for callbacks that outlive a render (tool calls, restore).
  const messagesRef = useRef<UIMessage[]>(initialMessages);
  const restoreRef = useRef<RestoreApi | null>(null);
  // Every target's runner in this page, from the controller (Python and SQL share the interpreter).
  const runners = controller ?? NO_RUNNERS;
  // Each target's package source, as its runner found it (R's when R starts, never at page load).
  const packageSources = usePackageSources(controller);
  useEffect(() => rememberPackageSources(packageSources), [packageSources]);
  // Stop ends every run of the turn: the signal each run gets is aborted, and a new one made.
  const stopSignalRef = useRef(new AbortController());
  /** The run pipeline (lib/targets/pipeline.client.ts) with this conversation's files, limits and restore. */
  const pipeline = useMemo<PipelineOptions>(
    () => ({
      runners,
      files: () => dataFilesRef.current,
      timeoutMs: runTimeoutMs,
      storeFile: conversationFileStore(conversationId),
      beforeStatefulRun: (id, target) => restoreRef.current?.beforeRun(id, target.engine) ?? { dependsOn: [] },
    }),
    [runners, runTimeoutMs, conversationId],
  );
  /** Runs one cell of any target through the pipeline: chat tool calls, Run again and Edit. */
  const runCode = useCallback(
    (target: Target, id: string, code: string, run: Omit<CellRun, 'runId' | 'signal'>) => runOnTarget(target, code, { ...run, runId: id, signal: stopSignalRef.current.signal }, pipeline),
    [pipeline],
  );
  const pipelineRef = useRef(pipeline);
  useEffect(() => {
    pipelineRef.current = pipeline;
  }, [pipeline]);
  const syncRef = useRef<((options?: { afterFailure?: boolean }) => Promise<void>) | null>(null);
  // Whether the server has this conversation: a new chat is stored by its first accepted message.
  // Until then nothing asks for it (no resume, no re-read): it would only be "not found".
  const [stored, setStored] = useState(initialMessages.length > 0);
  const storedRef = useRef(stored);
  useEffect(() => {
    storedRef.current = stored;
  }, [stored]);

  const transport = useMemo(
    () =>
      new DefaultChatTransport({
        api: '/api/chat',
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          // An accepted message has been stored, with its conversation.
          if (response.ok) setStored(true);
          return response;
        },
        // The server keeps the history; the browser sends only what is new.
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => {
          const { includeImages, stepBudget, modelSees } = currentSettings();
          const message = messages.at(-1);
          // A new message says which messages this tab has, so a stale tab is refused, not interleaved.
          const knownMessageIds = trigger === 'submit-message' && !messageId && message?.role === 'user' ? messages.slice(0, -1).map((m) => m.id) : undefined;
          return {
            body: { id, trigger, messageId, message, knownMessageIds, ...(projectId ? { projectId } : {}), packageSources: lastPackageSources(), modelId: pickedModel(id), settings: { includeImages, stepBudget, ...(modelSees === 'schema' ? { modelSees } : {}) } },
          };
        },
      }),
    [projectId],
  );

  const chat = useChat({
    id: conversationId,
    messages: initialMessages,
    transport,
    // A reloaded page attaches to an answer still being written (GET /api/chat/<id>/stream).
    resume: initialMessages.length > 0,
    sendAutomaticallyWhen: (options) => !stoppedRef.current && lastAssistantMessageIsCompleteWithToolCalls(options),
    // A failed turn shows what is stored: its fragment goes, a stale tab gets the latest messages.
    onError: () => {
      if (storedRef.current) void syncRef.current?.({ afterFailure: true });
    },
    async onToolCall({ toolCall }) {
      if (toolCall.dynamic) return;
      const id = toolCall.toolCallId;
      // User Timing mark: where bench/ measures the run round trip from (code complete).
      performance.mark('runpad:code-complete', { detail: id });
      // The list stays as drawn while the run starts: a quick run's cell is drawn once, finished.
      runHold.hold(id, messagesRef.current);
      // A run cut off with this page is stored with what it had done (lib/chat/abandoned-runs.server.ts).
      const progress = new RunProgressSaver(`/api/conversations/${conversationId}/runs/${encodeURIComponent(id)}/progress`);
      let ran: Awaited<ReturnType<typeof runToolCall>>;
      try {
        ran = await runToolCall(
          toolCall.toolName,
          toolCall.input,
          {
            runId: id,
            signal: stopSignalRef.current.signal,
            onPhase: (phase) => {
              runs.update(id, (run) => ({ ...run, phase }));
              if (phase.kind === 'running') progress.running(phase.startedAt);
            },
            onOutputs: (outputs) => {
              runs.setOutputs(id, outputs);
              progress.outputs(outputs);
            },
          },
          pipelineRef.current,
        );
        const code = ran && stoppedRef.current && storedRef.current ? readRunPart({ type: `tool-${ran.target.toolName}`, toolCallId: id, state: 'input-available', input: toolCall.input })?.code : null;
        // The person stopped the turn: no next request carries this run, so it is stored now, as
        // it ended ("interrupted … Variables were kept", every line it printed), before the cell
        // shows that end, so what the cell shows is what a reload shows.
        if (ran && code != null) ran = { ...ran, result: await saveCellRun(conversationId, id, code, ran.result) };
        const result = ran?.result;
        if (result) runs.update(id, (run) => ({ ...run, phase: { kind: 'done' }, result }));
      } finally {
        progress.finish();
        runHold.release(id);
      }
      if (!ran) return;
      // Rendering a large result and serialising it for the model are separate tasks, so
      // neither adds to the other's time on the main thread.
      await new Promise((resolve) => setTimeout(resolve, 0));
      void chat.addToolOutput({ tool: ran.target.toolName, toolCallId: id, output: ran.result });
    },
  });
  const { messages, status, error } = chat;
  const shownMessages = useHeld(messages, runHold);
  useEffect(() => {
    messagesRef.current = messages;
  }, [messages]);
  const restore = useRestore(controller, messages, messagesRef, {
    files: () => dataFilesRef.current,
    timeoutMs: runTimeoutMs,
    mayAutoRestore: () => controller?.fresh() === true,
  });
  useEffect(() => {
    restoreRef.current = restore;
  });
  const [sidebarOpen, setSidebarOpen] = useState(false);
  /** The title the conversation list holds (generated after the first answer, or renamed there). */
  const [listedTitle, setListedTitle] = useState<string | null>(null);
  /** What the header and the conversation's row in the list show: one name at every moment. */
  const shownName = shownTitle(listedTitle ?? title, firstQuestion(messages));
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [datasetsOpen, setDatasetsOpen] = useState(false);
  const openDatasets = useCallback(() => setDatasetsOpen(true), []);
  const closeDatasets = useCallback(() => setDatasetsOpen(false), []);
  const [stopFailed, setStopFailed] = useState<string | null>(null);
  // The sidebar reloads after each answer (a generated title appears), and once a new
  // conversation is stored (it is listed while its first answer is still coming).
  const [sidebarVersion, setSidebarVersion] = useState(0);
  const previousStatus = useRef(status);
  useEffect(() => {
    // After a failed answer too: a new conversation that holds nothing else leaves the list.
    if (previousStatus.current !== status && (status === 'ready' || status === 'error')) setSidebarVersion((v) => v + 1);
    previousStatus.current = status;
  }, [status]);
  usePrefetchImports(messages, controller);

  const exportScript = useMemo(() => scriptLanguage(messages), [messages]);
  const { setMessages } = chat;
  const runCell = useCellRuns({ conversationId, setMessages, runCode });
  const kernelContext = useMemo(() => ({ ready: controller !== null, runCell }), [controller, runCell]);
  const busy = status === 'submitted' || status === 'streaming' || engines.some((engine) => engine.state.kind === 'busy');
  const sync = useConversationSync({ conversationId, status, saved: stored, busy, messages, setMessages });
  useEffect(() => {
    syncRef.current = sync;
  }, [sync]);

  // Stable callbacks (the chat's methods are), so that a re-render of `Chat` for an engine's
  // state does not draw the memoised message list, header and sidebar again.
  const { sendMessage, regenerate, stop } = chat;
  const takeAttachments = uploads.takeAttachments;
  // Memoised with the composer and the settings dialog: React writes an input's name and type on
  // every render of it, and those writes alone made each run's start need a frame of its own.
  const attachments = useMemo(() => <FileChips uploads={uploads.uploads} onRemove={uploads.remove} onSwitch={uploads.switchLocation} />, [uploads.uploads, uploads.remove, uploads.switchLocation]);
  const send = useCallback(
    (text: string) => {
      stoppedRef.current = false;
      if (window.location.pathname !== `/c/${conversationId}`) {
        window.history.replaceState(null, '', `/c/${conversationId}`);
      }
      const attached = takeAttachments();
      void sendMessage({ text, metadata: attached.length > 0 ? { files: attached } : undefined });
    },
    [sendMessage, conversationId, takeAttachments],
  );
  const retry = useCallback(() => void regenerate(), [regenerate]);
  const regenerateAnswer = useCallback(() => {
    stoppedRef.current = false;
    void regenerate();
  }, [regenerate]);
  const continueAnswer = useCallback(() => {
    stoppedRef.current = false;
    void sendMessage();
  }, [sendMessage]);
  const editMessage = useCallback(
    (messageId: string, text: string) => {
      stoppedRef.current = false;
      const original = messagesRef.current.find((m) => m.id === messageId);
      void sendMessage({ text, messageId, metadata: original?.metadata });
      composerRef.current?.focus();
    },
    [sendMessage],
  );
  const sendFollowUp = useCallback(
    (text: string) => {
      stoppedRef.current = false;
      void sendMessage({ text });
    },
    [sendMessage],
  );
  const closeSidebar = useCallback(() => setSidebarOpen(false), []);
  const openSidebar = useCallback(() => setSidebarOpen(true), []);
  const openSettings = useCallback(() => setSettingsOpen(true), []);
  const closeSettings = useCallback(() => setSettingsOpen(false), []);
  const restartEngines = useCallback(() => controller?.restart(), [controller]);
  const startEngines = useCallback(() => controller?.startEngines(), [controller]);

  const stopAll = useCallback(() => {
    stoppedRef.current = true;
    void stop();
    // Closing the connection no longer stops the answer (a reload must not); Stop does, upstream.
    setStopFailed(null);
    void stopUpstream(conversationId).then(setStopFailed);
    stopSignalRef.current.abort();
    stopSignalRef.current = new AbortController();
    controllerRef.current?.interrupt();
    composerRef.current?.focus();
  }, [stop, conversationId]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && busy) stopAll();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy, stopAll]);

  return (
    <KernelContext.Provider value={kernelContext}>
    <MissingFilesProvider value={missingFiles}>
    <div className="flex h-dvh">
      <Sidebar currentId={conversationId} refreshKey={sidebarVersion + (stored ? 1 : 0)} open={sidebarOpen} onClose={closeSidebar} onCurrentTitle={setListedTitle} currentName={shownName} onOpenDatasets={openDatasets} />
      <DatasetsDialog open={datasetsOpen} onClose={closeDatasets} conversationId={conversationId} onAdd={uploads.addExisting} />
      <DropZone onFiles={uploads.add}>
      <ChatHeader
        conversationId={conversationId}
        saved={stored}
        title={shownName}
        config={config}
        modelId={modelId}
        onPickModel={setModelId}
        modelPickDisabled={status === 'submitted' || status === 'streaming'}
        engines={engines}
        onRestart={restartEngines}
        onOpenSidebar={openSidebar}
        onOpenSettings={openSettings}
        scriptLanguage={exportScript}
      />
      <SettingsDialog open={settingsOpen} onClose={closeSettings} maxTimeoutMs={config.maxRunTimeoutMs} version={config.version} operatorModelSees={config.modelSees} signedIn={signedIn} />
      <main ref={scrollRef} className="relative min-h-0 flex-1 overflow-y-auto" id="conversation">
        <MessageList
          messages={shownMessages}
          runs={runs}
          status={status}
          error={error}
          onRetry={retry}
          onRegenerate={regenerateAnswer}
          onContinue={continueAnswer}
          onEditMessage={editMessage}
          isDemo={config.isDemo}
          packagesUnavailable={packageSources.python === 'unreachable'}
          onExample={send}
          onCheck={sendFollowUp}
          conversationId={conversationId}
        />
        {messages.some((m) => m.role === 'assistant') && <ModelSentTotal conversationId={conversationId} refreshKey={status === 'ready' || status === 'error' ? messages.length : -1} />}
      </main>
      <div className="relative mx-auto w-full max-w-3xl px-3 pb-3 sm:px-4">
        {!atBottom && (
          <button
            type="button"
            onClick={jumpToLatest}
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
        {stopFailed && <StopFailedNotice message={stopFailed} onDismiss={() => setStopFailed(null)} />}
        <RestoreBanner restore={restore} busy={busy} />
        {projectDatasets && <ProjectDatasetsNote datasets={projectDatasets} />}
        <Composer
          ref={composerRef}
          busy={busy}
          canSend={!uploads.busy}
          onSend={send}
          onStop={stopAll}
          onFiles={uploads.add}
          onTyping={startEngines}
          attachments={attachments}
        />
        <p className="mt-1 text-center text-xs text-zinc-500 dark:text-zinc-400">Code runs in your browser<span className="max-sm:hidden">, in sandboxed workers: Python, SQL (DuckDB), R, Graphviz and JavaScript</span>.</p>
      </div>
      </DropZone>
    </div>
    </MissingFilesProvider>
    </KernelContext.Provider>
  );
}
