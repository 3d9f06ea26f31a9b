'use client';

import { useCallback, useSyncExternalStore } from 'react';
import { z } from 'zod';
import { RUN_LIMITS, TURN_LIMITS } from '@/lib/runtime/limits';

/** Per-browser settings, kept in localStorage (validated: it is user-editable storage). */
export const settingsSchema = z.object({
  timeoutMs: z.number().int().min(1_000).max(RUN_LIMITS.maxTimeoutMs).default(RUN_LIMITS.defaultTimeoutMs),
  includeImages: z.boolean().default(true),
  stepBudget: z.number().int().min(1).max(TURN_LIMITS.maxStepBudget).default(TURN_LIMITS.defaultStepBudget),
  /** `schema`: conversations sent from here send the model only the shape of data (lib/ai/model-sees.server.ts); a conversation that did stays so. */
  modelSees: z.enum(['outputs', 'schema']).default('outputs'),
});
export type Settings = z.infer<typeof settingsSchema>;

const KEY = 'runpad:settings';
const DEFAULTS = settingsSchema.parse({});
const listeners = new Set<() => void>();
let cache: { raw: string | null; value: Settings } | null = null;

function read(): Settings {
  const raw = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEY);
  if (cache?.raw === raw) return cache.value;
  let value = DEFAULTS;
  try {
    value = settingsSchema.parse(raw ? JSON.parse(raw) : {});
  } catch (error) {
    // Settings this version cannot read (edited by hand, an older shape): the defaults apply until the next change is saved.
    console.warn('Saved settings could not be read; using the defaults.', error);
    value = DEFAULTS;
  }
  cache = { raw, value };
  return value;
}

export function useSettings(): [Settings, (next: Partial<Settings>) => void] {
  const settings = useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    read,
    () => DEFAULTS,
  );
  const update = useCallback((next: Partial<Settings>) => {
    localStorage.setItem(KEY, JSON.stringify({ ...read(), ...next }));
    for (const listener of listeners) listener();
  }, []);
  return [settings, update];
}

export function currentSettings(): Settings {
  return read();
}
