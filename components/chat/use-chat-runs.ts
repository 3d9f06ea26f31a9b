'use client';

/**
 * The conversation's runs, as the chat uses them: the page's runs controller (lib/targets/runs.client.ts)
 * and its engines' statuses, the run pipeline (lib/targets/pipeline.client.ts) with this
 * conversation's files, time limit and restore, each target's package source, and Stop's signal.
 */
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { DataFile } from '@/lib/files/data-file';
import type { ClientConfig } from '@/lib/client-config';
import type { EngineStart } from '@/lib/targets/engine';
import { runOnTarget, type CellRun, type PipelineOptions } from '@/lib/targets/pipeline.client';
import type { Target } from '@/lib/targets/registry';
import { NO_RUNNERS } from '@/lib/targets/runs.client';
import { useEngineStatuses, useRunsController } from '@/lib/targets/use-runs.client';
import { conversationFileStore } from '@/components/files/store-output-files';
import { preloadMarkdown } from './markdown';
import type { RestoreApi } from './use-restore';
import { currentSettings } from './use-settings';
import { rememberPackageSources, usePackageSources } from './use-package-source';

type ChatRunsOptions = {
  conversationId: string;
  config: ClientConfig;
  engineStart: EngineStart;
  /** The conversation's files as every engine should see them under /data/. */
  files: () => readonly DataFile[];
  /** Restore, once the chat has it (it needs the messages, which need the runs). */
  restoreRef: { current: RestoreApi | null };
};

export function useChatRuns({ conversationId, config, engineStart, files, restoreRef }: ChatRunsOptions) {
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
  const runTimeoutMs = useCallback(() => Math.min(currentSettings().timeoutMs, config.maxRunTimeoutMs), [config.maxRunTimeoutMs]);
  // Every target's runner in this page, from the controller (Python and SQL share the interpreter).
  const runners = controller ?? NO_RUNNERS;
  // Each target's package source, as its runner found it (R's when R starts, never at page load).
  const packageSources = usePackageSources(controller);
  useEffect(() => rememberPackageSources(packageSources), [packageSources]);
  // Stop ends every run of the turn: the signal each run gets is aborted, and a new one made.
  const stopSignalRef = useRef(new AbortController());
  /** The run pipeline with this conversation's files, limits and restore. */
  const pipeline = useMemo<PipelineOptions>(
    () => ({
      runners,
      files,
      timeoutMs: runTimeoutMs,
      storeFile: conversationFileStore(conversationId),
      beforeStatefulRun: (id, target) => restoreRef.current?.beforeRun(id, target.engine) ?? { dependsOn: [] },
    }),
    [runners, files, runTimeoutMs, conversationId, restoreRef],
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
  /** The signal of this turn's runs (aborted by Stop). */
  const signal = useCallback(() => stopSignalRef.current.signal, []);
  /** Stop: every run of the turn is aborted, and the engines' running cells interrupted. */
  const stopRuns = useCallback(() => {
    stopSignalRef.current.abort();
    stopSignalRef.current = new AbortController();
    controllerRef.current?.interrupt();
  }, []);
  const restartEngines = useCallback(() => controller?.restart(), [controller]);
  const startEngines = useCallback(() => controller?.startEngines(), [controller]);
  return { controller, engines, runTimeoutMs, packageSources, pipelineRef, runCode, signal, stopRuns, restartEngines, startEngines };
}
