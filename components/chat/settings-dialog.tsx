'use client';

import { memo, useEffect, useRef } from 'react';
import { TURN_LIMITS } from '@/lib/runtime/limits';
import type { ModelSees } from '@/lib/messages/model-input-schema';
import { useSettings } from './use-settings';

type Props = {
  open: boolean;
  onClose: () => void;
  maxTimeoutMs: number;
  version: string;
  /** The operator's RUNPAD_MODEL_SEES: under `schema` every conversation sends only shapes, whatever is saved here. */
  operatorModelSees: ModelSees;
  /** A signed-in account (not a guest): not asked to sign in. */
  signedIn: boolean;
};

/** Per-browser settings: run time limit, images to the model, code runs per turn; and which Runpad this is. */
export const SettingsDialog = memo(function SettingsDialog({ open, onClose, maxTimeoutMs, version, operatorModelSees, signedIn }: Props) {
  const [settings, update] = useSettings();
  const operatorSet = operatorModelSees === 'schema';
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="settings-title"
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-zinc-200 bg-white p-5 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <h2 id="settings-title" className="text-lg font-semibold">
        Settings
      </h2>
      <div className="mt-4 space-y-4 text-sm">
        <label className="block">
          <span className="font-medium">Time limit per run (seconds)</span>
          <input
            type="number"
            min={1}
            max={Math.floor(maxTimeoutMs / 1000)}
            value={Math.round(settings.timeoutMs / 1000)}
            onChange={(event) => {
              const seconds = Number(event.target.value);
              if (seconds >= 1) update({ timeoutMs: Math.min(seconds * 1000, maxTimeoutMs) });
            }}
            className="mt-1 block w-28 rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700"
          />
          <span className="mt-1 block text-xs text-zinc-500 dark:text-zinc-400">Code that takes longer is stopped; at most {Math.floor(maxTimeoutMs / 1000)} s on this server.</span>
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={settings.includeImages} onChange={(event) => update({ includeImages: event.target.checked })} />
          <span>Send figures to the model as images (turn off for models without vision)</span>
        </label>
        <label className="flex items-start gap-2">
          <input
            type="checkbox"
            className="mt-1"
            checked={operatorSet || settings.modelSees === 'schema'}
            disabled={operatorSet}
            onChange={(event) => update({ modelSees: event.target.checked ? 'schema' : 'outputs' })}
          />
          <span>
            Send the model only the shape of my data
            <span className="mt-1 block text-xs text-zinc-500 dark:text-zinc-400">
              {operatorSet ? 'The operator of this Runpad set this for every conversation, so it cannot be turned off here. ' : ''}
              Sizes, types, that a figure was made, an error’s type and line, and only the words the model already knows (its code, your files’ header rows and names): no row, value, printed text or image. A conversation that sent a message with this on keeps it; you still see everything.
            </span>
          </span>
        </label>
        <label className="block">
          <span className="font-medium">Code steps per message</span>
          <input
            type="number"
            min={1}
            max={TURN_LIMITS.maxStepBudget}
            value={settings.stepBudget}
            onChange={(event) => {
              const value = Number(event.target.value);
              if (value >= 1 && value <= TURN_LIMITS.maxStepBudget) update({ stepBudget: value });
            }}
            className="mt-1 block w-28 rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700"
          />
        </label>
        <p>
          <a href="/account" className="font-medium text-blue-700 underline dark:text-blue-300">
            Account
          </a>
          {signedIn ? ': your signed-in devices, export, deletion.' : ': sign in to keep your work on every device; signed-in devices, export, deletion.'}
        </p>
      </div>
      <form method="dialog" className="mt-5 flex items-center justify-between">
        <span className="text-xs text-zinc-500 dark:text-zinc-400">Runpad {version}</span>
        <button className="rounded-lg bg-blue-600 px-4 py-1.5 text-sm font-medium text-white hover:bg-blue-700">Done</button>
      </form>
    </dialog>
  );
});
