'use client';

/** The runs controller as React sees it: one per mounted conversation, and its engines' statuses. */
import 'client-only';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { stateBefore, targetConfigOf, type EngineStart, type EngineStatus, type TargetConfig } from './engine';
import { RunsController } from './runs.client';
import { ENGINES } from './runners.client';

const BEFORE: Record<EngineStart, readonly EngineStatus[]> = {
  now: ENGINES.map((engine) => ({ name: engine.name, state: stateBefore('now') })),
  'when-needed': ENGINES.map((engine) => ({ name: engine.name, state: stateBefore('when-needed') })),
};

/** One controller per mounted conversation, its engines started as the page loads or when first needed (`start`). */
export function useRunsController(config: TargetConfig, start: EngineStart = 'now'): RunsController | null {
  const [controller, setController] = useState<RunsController | null>(null);
  // The same configuration in another object (a refreshed page's props) keeps the engines.
  const key = JSON.stringify(targetConfigOf(config));
  useEffect(() => {
    const created = new RunsController(JSON.parse(key) as TargetConfig, start);
    // The engines are external resources created on mount; publishing them once is intended.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setController(created);
    return () => created.dispose();
  }, [key, start]);
  return controller;
}

/** The engines' statuses; before the controller exists, what they will show first. */
export function useEngineStatuses(controller: RunsController | null, start: EngineStart = 'now'): readonly EngineStatus[] {
  return useSyncExternalStore(
    (onChange) => controller?.subscribe(onChange) ?? (() => undefined),
    () => controller?.statuses() ?? BEFORE[start],
    () => BEFORE[start],
  );
}
