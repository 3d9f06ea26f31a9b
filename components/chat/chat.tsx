'use client';

import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithToolCalls, type UIMessage } from 'ai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RunResult } from '@/lib/runtime/protocol';
import type { RunOptions } from '@/lib/runtime/kernel';
import { codeInputSchema, targetOf, type Target } from '@/lib/targets/registry';
import { GraphvizRunner } from '@/lib/targets/graphviz/graphviz-runner';
import { RRunner } from '@/lib/targets/r/r-runner';
import { withDrawnDiagrams } from '@/lib/targets/graphviz/dot-outputs';
import { withChartImages } from '@/lib/charts/chart-images';
import { useKernel, useKernelState } from '@/lib/runtime/use-kernel';
import { lastPackageSource, rememberPackageSource, usePackageSource } from './use-package-source';
import { PackageSourceNotice } from './package-source-notice';
import type { ClientConfig } from '@/lib/client-config';
import type { Attachment } from '@/lib/files/attachment';
import { DropZone } from '@/components/files/drop-zone';
import { FileChips } from '@/components/files/file-chips';
import { storeOutputFiles } from '@/components/files/store-output-files';
import { useUploads } from '@/components/files/use-uploads';
import { Composer } from './composer';
import { ChatHeader } from './chat-header';
import { MessageList } from './message-list';
import { Sidebar } from './sidebar';
import { KernelContext } from './kernel-context';
import { SettingsDialog } from './settings-dialog';
import { RunStore } from './run-store';
import { currentSettings } from './use-settings';
import { useCellRuns } from './use-cell-runs';
import { usePrefetchImports } from './use-prefetch-imports';
import { useStickToBottom } from './use-stick-to-bottom';
import { useRestore, type RestoreApi } from './use-restore';
import { RestoreBanner } from './restore-banner';
import { useConversationSync } from './use-conversation-sync';

export type ConversationFile = Pick<Attachment, 'name' | 'sha256' | 'size' | 'mediaType'>;

type ChatProps = {
  conversationId: string;
  initialMessages: UIMessage[];
  initialFiles: ConversationFile[];
  title: string | null;
  config: ClientConfig;
};

/** Until a title is generated, the first question names the conversation. */
function firstUserText(messages: UIMessage[]): string | null {
  const first = messages.find((m) => m.role === 'user');
  const text = first?.parts.map((p) => (p.type === 'text' ? p.text : '')).join(' ').trim();
  return text ? text.slice(0, 80) : null;
}

export function Chat({ conversationId, initialMessages, initialFiles, title, config }: ChatProps) {
  const kernel = useKernel(config);
  const kernelState = useKernelState(kernel);
  const packageSource = usePackageSource(kernel);
  useEffect(() => rememberPackageSource(packageSource), [packageSource]);
  const kernelRef = useRef(kernel);
  useEffect(() => {
    kernelRef.current = kernel;
  }, [kernel]);
  const runs = useMemo(() => new RunStore(), []);
  const [files, setFiles] = useState<ConversationFile[]>(initialFiles);
  const addStoredFile = useCallback((file: ConversationFile) => setFiles((list) => [...list.filter((f) => f.name !== file.name), file]), []);
  const uploads = useUploads(conversationId, addStoredFile);
  const filesRef = useRef(files);
  useEffect(() => {
    filesRef.current = files;
  }, [files]);
  useEffect(() => {
    kernel?.setFiles(files.map((f) => ({ name: f.name, sha256: f.sha256, url: `/api/blobs/${f.sha256}` })));
  }, [kernel, files]);
  const stoppedRef = useRef(false);
  const composerRef = useRef<HTMLTextAreaElement>(null);
  const scrollRef = useRef<HTMLElement>(null);
  const { atBottom, jumpToLatest } = useStickToBottom(scrollRef);

  const runTimeoutMs = useCallback(() => Math.min(currentSettings().timeoutMs, config.maxRunTimeoutMs), [config.maxRunTimeoutMs]);
  // The latest messages, for callbacks that outlive a render (tool calls, restore).
  const messagesRef = useRef<UIMessage[]>(initialMessages);
  const restoreRef = useRef<RestoreApi | null>(null);
  const graphviz = useMemo(() => new GraphvizRunner(), []);
  useEffect(() => () => graphviz.dispose(), [graphviz]);
  const rRunner = useMemo(() => new RRunner({ webrBasePath: config.webrBasePath, rPackageRepoUrl: config.rPackageRepoUrl }), [config.webrBasePath, config.rPackageRepoUrl]);
  useEffect(() => () => rRunner.dispose(), [rRunner]);
  /** Stop (the button, Escape) ends an R run too. */
  const rStopRef = useRef(new AbortController());
  /**
   * Runs one cell of any target (lib/targets/registry.ts): Python and SQL in this conversation's
   * interpreter (restored first when it may be), Graphviz in its own worker.
   */
  const runCode = useCallback(
    async (target: Target, id: string, code: string, options: Pick<RunOptions, 'onPhase' | 'onOutputs'>): Promise<RunResult> => {
      if (target.runsIn === 'graphviz-worker') return graphviz.run(code, runTimeoutMs());
      if (target.runsIn === 'r-worker') {
        if (rStopRef.current.signal.aborted) rStopRef.current = new AbortController();
        const files = filesRef.current.map((f) => ({ name: f.name, sha256: f.sha256, url: `/api/blobs/${f.sha256}` }));
        const result = await rRunner.run(code, { runId: id, files, timeoutMs: runTimeoutMs(), signal: rStopRef.current.signal, ...options });
        return storeOutputFiles(result, rRunner, conversationId);
      }
      const current = kernelRef.current;
      if (!current) return { status: 'crashed', durationMs: 0, outputs: [], notice: 'The interpreter is not available in this page.' };
      const { dependsOn, restored } = (await restoreRef.current?.beforeRun(id)) ?? { dependsOn: [] };
      let result = await current.run(code, { ...options, language: target.id === 'sql' ? 'sql' : 'python', runId: id, dependsOn, timeoutMs: runTimeoutMs() });
      result = await storeOutputFiles(result, current, conversationId);
      // DOT that Python displayed is drawn by the Graphviz target; the model sees every diagram
      // and every Vega-Lite chart as a PNG drawn here.
      result = await withDrawnDiagrams(result, (dot) => graphviz.render(dot, runTimeoutMs()));
      result = await withChartImages(result);
      return restored ? { ...result, restored, freshInterpreter: undefined } : result;
    },
    [graphviz, rRunner, runTimeoutMs, conversationId],
  );
  const runCodeRef = useRef(runCode);
  useEffect(() => {
    runCodeRef.current = runCode;
  }, [runCode]);
  const syncRef = useRef<((options?: { afterFailure?: boolean }) => Promise<void>) | null>(null);

  const transport = useMemo(
    () =>
      new DefaultChatTransport({
        api: '/api/chat',
        // The server keeps the history; the browser sends only what is new.
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => {
          const { includeImages, stepBudget } = currentSettings();
          const message = messages.at(-1);
          // A new message says which messages this tab has, so a stale tab is refused, not interleaved.
          const knownMessageIds = trigger === 'submit-message' && !messageId && message?.role === 'user' ? messages.slice(0, -1).map((m) => m.id) : undefined;
          return { body: { id, trigger, messageId, message, knownMessageIds, packageSource: lastPackageSource(), settings: { includeImages, stepBudget } } };
        },
      }),
    [],
  );

  const chat = useChat({
    id: conversationId,
    messages: initialMessages,
    transport,
    // A reloaded page attaches to an answer still being written (GET /api/chat/<id>/stream).
    resume: true,
    sendAutomaticallyWhen: (options) => !stoppedRef.current && lastAssistantMessageIsCompleteWithToolCalls(options),
    // A failed turn shows what is stored: its fragment goes, a stale tab gets the latest messages.
    onError: () => void syncRef.current?.({ afterFailure: true }),
    async onToolCall({ toolCall }) {
      const target = toolCall.dynamic ? null : targetOf(toolCall.toolName);
      if (!target) return;
      const input = codeInputSchema.safeParse(toolCall.input);
      const id = toolCall.toolCallId;
      let result: RunResult;
      if (!input.success) {
        result = { status: 'error', durationMs: 0, outputs: [{ output_type: 'error', ename: 'InvalidToolInput', evalue: `The ${target.toolName} tool needs {"code": "<source>"}.`, traceback: [] }] };
      } else {
        // User Timing mark: where bench/ measures the run round trip from (code complete).
        performance.mark('runpad:code-complete', { detail: id });
        result = await runCodeRef.current(target, id, input.data.code, {
          onPhase: (phase) => runs.update(id, (run) => ({ ...run, phase })),
          onOutputs: (outputs) => runs.setOutputs(id, outputs),
        });
        runs.update(id, (run) => ({ ...run, phase: { kind: 'done' }, result }));
        // Rendering a large result and serialising it for the model are separate tasks, so
        // neither adds to the other's time on the main thread.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      void chat.addToolOutput({ tool: target.toolName, toolCallId: id, output: result });
    },
  });
  const { messages, status, error } = chat;
  useEffect(() => {
    messagesRef.current = messages;
  }, [messages]);
  const restore = useRestore(kernel, messages, messagesRef, runTimeoutMs);
  useEffect(() => {
    restoreRef.current = restore;
  });
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // The sidebar reloads after each answer (a new conversation or a generated title appears).
  const [sidebarVersion, setSidebarVersion] = useState(0);
  const previousStatus = useRef(status);
  useEffect(() => {
    if (previousStatus.current !== 'ready' && status === 'ready') setSidebarVersion((v) => v + 1);
    previousStatus.current = status;
  }, [status]);
  usePrefetchImports(messages, kernel);
  // R starts on first need: as soon as the model starts writing an `r` call (or a restored page has one).
  const wantsR = messages.some((m) => m.role === 'assistant' && m.parts.some((part) => part.type === 'tool-r'));
  useEffect(() => {
    if (wantsR) rRunner.start().catch(() => undefined); // a failed start is reported by the run that needs R
  }, [wantsR, rRunner]);

  const { setMessages } = chat;
  const runCell = useCellRuns({ kernel, conversationId, setMessages, runCode });
  const kernelContext = useMemo(() => ({ kernel, runCell }), [kernel, runCell]);
  const busy = status === 'submitted' || status === 'streaming' || kernelState.kind === 'busy';
  const sync = useConversationSync({ conversationId, status, saved: messages.length > 0, busy, messages, setMessages });
  useEffect(() => {
    syncRef.current = sync;
  }, [sync]);

  const send = useCallback(
    (text: string) => {
      stoppedRef.current = false;
      if (window.location.pathname !== `/c/${conversationId}`) {
        window.history.replaceState(null, '', `/c/${conversationId}`);
      }
      const attached = uploads.takeAttachments();
      void chat.sendMessage({ text, metadata: attached.length > 0 ? { files: attached } : undefined });
    },
    [chat, conversationId, uploads],
  );

  const stopAll = useCallback(() => {
    stoppedRef.current = true;
    void chat.stop();
    // Closing the connection no longer stops the answer (a reload must not); Stop does, upstream.
    void fetch(`/api/chat/${conversationId}/stop`, { method: 'POST' }).catch(() => undefined);
    kernelRef.current?.stop();
    rStopRef.current.abort();
    composerRef.current?.focus();
  }, [chat, conversationId]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && busy) stopAll();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy, stopAll]);

  return (
    <KernelContext.Provider value={kernelContext}>
    <div className="flex h-dvh">
      <Sidebar currentId={conversationId} refreshKey={sidebarVersion} open={sidebarOpen} onClose={() => setSidebarOpen(false)} />
      <DropZone onFiles={uploads.add}>
      <ChatHeader
        conversationId={conversationId}
        saved={messages.length > 0}
        title={title ?? firstUserText(messages)}
        config={config}
        kernelState={kernelState}
        onRestart={() => kernel?.restart()}
        onOpenSidebar={() => setSidebarOpen(true)}
        onOpenSettings={() => setSettingsOpen(true)}
      />
      <SettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} maxTimeoutMs={config.maxRunTimeoutMs} />
      <main ref={scrollRef} className="relative min-h-0 flex-1 overflow-y-auto" id="conversation">
        <MessageList
          messages={messages}
          runs={runs}
          status={status}
          error={error}
          onRetry={() => void chat.regenerate()}
          onRegenerate={() => {
            stoppedRef.current = false;
            void chat.regenerate();
          }}
          onContinue={() => {
            stoppedRef.current = false;
            void chat.sendMessage();
          }}
          onEditMessage={(messageId, text) => {
            stoppedRef.current = false;
            const original = messages.find((m) => m.id === messageId);
            void chat.sendMessage({ text, messageId, metadata: original?.metadata });
            composerRef.current?.focus();
          }}
          isDemo={config.isDemo}
          packagesUnavailable={packageSource === 'unreachable'}
          onExample={send}
        />
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
        {packageSource === 'unreachable' && <PackageSourceNotice packageBaseUrl={config.packageBaseUrl} />}
        <RestoreBanner restore={restore} busy={busy} />
        <Composer
          ref={composerRef}
          busy={busy}
          canSend={!uploads.busy}
          onSend={send}
          onStop={stopAll}
          onFiles={uploads.add}
          attachments={<FileChips uploads={uploads.uploads} onRemove={uploads.remove} />}
        />
        <p className="mt-1 text-center text-xs text-zinc-500 dark:text-zinc-400">Code runs in your browser, in a sandboxed Python (Pyodide).</p>
      </div>
      </DropZone>
    </div>
    </KernelContext.Provider>
  );
}
