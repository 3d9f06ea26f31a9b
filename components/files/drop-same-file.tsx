'use client';

/**
 * "Drop the same file to continue": shown on a run that failed because a dataset is kept on its
 * owner's device and this browser does not have it (`dataset-missing`, reason `on-device`: a share's
 * re-run, another device, a cleared browser). The dropped or chosen file is copied into this
 * device's storage while it is hashed (lib/files/keep-on-device.client.ts); the same SHA-256 keeps it
 * and the run goes again, a different file is named as such (both sizes) and nothing is kept. It is
 * never uploaded. The page says which files it expects, and what to do once one is kept, through
 * context, so cells need no props for it.
 */
import { createContext, useContext, useState, type DragEvent } from 'react';
import { formatBytes } from '@/lib/format';
import { acceptedMediaType } from '@/lib/files/accept';
import { keepOnDevice } from '@/lib/files/keep-on-device.client';
import type { RunFailure } from '@/lib/runtime/run-failure';

/** `salts`: `sha256` is a value a share showed (lib/security/salted-hash.ts), checked by computing it from the dropped file's SHA-256. */
export type ExpectedFile = { sha256: string; size: number | null; salts?: readonly string[] };

export type MissingFiles = {
  /** The file this conversation (or share) names so, or null when it does not. */
  expected: (name: string) => ExpectedFile | null;
  /** Called once the same file is kept here (the share page re-runs from there). */
  onKept?: (name: string) => void;
};

const MissingFilesContext = createContext<MissingFiles | null>(null);
export const MissingFilesProvider = MissingFilesContext.Provider;

/** The names of the datasets a run's failures say are on another device. */
export function missingOnDevice(failures: readonly RunFailure[] | undefined): string[] {
  return (failures ?? []).flatMap((failure) => (failure.kind === 'dataset-missing' && failure.reason === 'on-device' ? [failure.name] : []));
}

type State = { kind: 'waiting' } | { kind: 'checking'; percent: number } | { kind: 'kept' } | { kind: 'refused'; message: string };

/** One drop target per missing file of the run; `onKept` runs the cell again (the chat page). */
export function DropSameFiles({ failures, onKept }: { failures: readonly RunFailure[] | undefined; onKept?: () => void }) {
  const names = missingOnDevice(failures);
  if (names.length === 0) return null;
  return (
    <>
      {names.map((name) => (
        <DropSameFile key={name} name={name} onKept={onKept} />
      ))}
    </>
  );
}

function DropSameFile({ name, onKept }: { name: string; onKept?: () => void }) {
  const context = useContext(MissingFilesContext);
  const [state, setState] = useState<State>({ kind: 'waiting' });
  const [over, setOver] = useState(false);
  const expected = context?.expected(name) ?? null;
  if (!expected) return null;
  const check = async (file: File) => {
    setState({ kind: 'checking', percent: 0 });
    const outcome = await keepOnDevice(file, {
      name,
      mediaType: acceptedMediaType(name) ?? 'application/octet-stream',
      expectedSha256: expected.sha256,
      ...(expected.salts?.length ? { expectedSalts: [...expected.salts] } : {}),
      onProgress: (written, total) => setState({ kind: 'checking', percent: total > 0 ? Math.floor((100 * written) / total) : 100 }),
    });
    if (outcome.kind === 'kept') {
      setState({ kind: 'kept' });
      context?.onKept?.(name);
      onKept?.();
    } else if (outcome.kind === 'different') {
      const wanted = expected.size !== null ? ` (${formatBytes(expected.size)})` : '';
      setState({ kind: 'refused', message: `“${file.name}” (${formatBytes(outcome.size)}) is a different file from the ${name}${wanted} this conversation used: its contents differ. Nothing was kept; drop the same file.` });
    } else setState({ kind: 'refused', message: outcome.message });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) void check(file);
  };
  return (
    <div
      data-testid="drop-same-file"
      data-state={state.kind}
      onDragOver={(event) => {
        if (!Array.from(event.dataTransfer.types).includes('Files')) return;
        event.preventDefault();
        event.stopPropagation();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={`mt-2 rounded-lg border-2 border-dashed p-3 text-sm ${over ? 'border-blue-500 bg-blue-50 dark:bg-blue-950/40' : 'border-zinc-300 dark:border-zinc-700'}`}
    >
      {state.kind === 'kept' ? (
        <p role="status">{name} is kept on this device now; running again.</p>
      ) : (
        <>
          <p>{name} is kept on its owner&apos;s device, not in the account, and this browser does not have it.</p>
          <p className="font-medium">Drop the same file to continue</p>
          <p className="text-zinc-600 dark:text-zinc-400">
            Drop {name} here or{' '}
            <label className="cursor-pointer underline">
              choose it
              <input type="file" className="sr-only" aria-label={`Choose ${name}`} disabled={state.kind === 'checking'} onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (file) void check(file);
              }} />
            </label>
            : it is checked by its SHA-256 and kept on this device, never uploaded.
          </p>
          {state.kind === 'checking' && <p role="status">Checking and keeping on this device… {state.percent}%</p>}
          {state.kind === 'refused' && <p role="alert" className="text-red-700 dark:text-red-300">{state.message}</p>}
        </>
      )}
    </div>
  );
}
