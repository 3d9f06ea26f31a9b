'use client';

/**
 * A project's dataset library on its page (/p/<id>): each dataset by name, size, type, columns and
 * SHA-256. An uploaded one downloads; one kept on members' devices says whether this device holds
 * the person's own copy, and takes it ("Choose your copy"): checked by its SHA-256 and kept on this
 * device, never uploaded. Those who can edit add datasets (uploaded, or kept on their device and
 * listed by name, size, columns and hash) and remove them. Every refusal in the server's words.
 */
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { uploadFile } from '@/components/files/upload-request';
import { previewFile } from '@/components/files/preview-file';
import { useHeldOnDevice } from '@/components/files/project-datasets-note';
import { acceptedMediaType, ACCEPT_ATTRIBUTE } from '@/lib/files/accept';
import { keepOnDevice } from '@/lib/files/keep-on-device.client';
import { formatBytes } from '@/lib/format';
import { failureWords } from '@/lib/http/error-body.client';

export type ProjectDatasetView = {
  id: string;
  name: string;
  size: number;
  mediaType: string;
  sha256: string;
  location: 'account' | 'device';
  columns: Array<{ name: string; type: string }> | null;
  rows: number | null;
};

type Note = { kind: 'status' | 'alert'; text: string } | null;

export function ProjectDatasets({ projectId, files, canEdit }: { projectId: string; files: ProjectDatasetView[]; canEdit: boolean }) {
  const [refresh, setRefresh] = useState(0);
  const held = useHeldOnDevice({ files }, refresh);
  return (
    <>
      <ul className="mt-2 divide-y divide-zinc-200 text-sm dark:divide-zinc-800" aria-label="Datasets">
        {files.length === 0 && <li className="py-2 text-zinc-600 dark:text-zinc-400">None yet.</li>}
        {files.map((file) => (
          <DatasetItem key={file.id} projectId={projectId} file={file} held={held.has(file.sha256)} canEdit={canEdit} onKept={() => setRefresh((n) => n + 1)} />
        ))}
      </ul>
      {canEdit && <AddDataset projectId={projectId} />}
    </>
  );
}

function DatasetItem({ projectId, file, held, canEdit, onKept }: { projectId: string; file: ProjectDatasetView; held: boolean; canEdit: boolean; onKept: () => void }) {
  const router = useRouter();
  const [note, setNote] = useState<Note>(null);
  const columns = (file.columns ?? []).map((column) => `${column.name} (${column.type})`).join(', ');
  const remove = async () => {
    const response = await fetch(`/api/projects/${projectId}/files/${file.id}`, { method: 'DELETE' }).catch(() => null);
    if (response?.status === 204) return router.refresh();
    setNote({ kind: 'alert', text: await failureWords(response, `${file.name} could not be removed.`) });
  };
  const keepCopy = async (chosen: File) => {
    setNote({ kind: 'status', text: `Checking ${chosen.name} and keeping it on this device…` });
    const outcome = await keepOnDevice(chosen, { name: file.name, mediaType: file.mediaType, expectedSha256: file.sha256 });
    if (outcome.kind === 'kept') {
      setNote({ kind: 'status', text: `Your copy of ${file.name} is kept on this device: conversations in this project read it here.` });
      onKept();
    } else if (outcome.kind === 'different') setNote({ kind: 'alert', text: `“${chosen.name}” (${formatBytes(outcome.size)}) is not ${file.name} (${formatBytes(file.size)}): its contents differ. Nothing was kept; choose the same file.` });
    else setNote({ kind: 'alert', text: outcome.message });
  };
  return (
    <li className="space-y-1 py-3" data-testid="project-dataset" data-location={file.location}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="min-w-0 flex-1 break-all font-medium">{file.name}</span>
        {file.location === 'account' ? (
          <a href={`/api/projects/${projectId}/files/${file.id}`} download={file.name} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
            Download<span className="sr-only"> {file.name}</span>
          </a>
        ) : (
          <span data-testid="device-copy">{held ? 'Your copy is on this device' : 'Needs your copy'}</span>
        )}
        {canEdit && (
          <button type="button" onClick={() => void remove()} className="rounded px-1 text-red-700 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 dark:text-red-300">
            Remove<span className="sr-only"> {file.name}</span>
          </button>
        )}
      </div>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {formatBytes(file.size)} · {file.location === 'account' ? 'uploaded to the project' : 'kept on members’ devices, never uploaded'}
        {file.rows !== null && ` · ${file.rows.toLocaleString('en-US')} rows`}
        {columns && ` · columns ${columns}`}
      </p>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        SHA-256 <code className="break-all">{file.sha256}</code>
      </p>
      {file.location === 'device' && !held && (
        <label className="inline-block cursor-pointer text-xs text-blue-700 underline underline-offset-2 dark:text-blue-400">
          Choose your copy of {file.name}
          <input type="file" className="sr-only" onChange={(event) => {
            const chosen = event.target.files?.[0];
            event.target.value = '';
            if (chosen) void keepCopy(chosen);
          }} />
        </label>
      )}
      {note && <p role={note.kind} className={`text-xs ${note.kind === 'alert' ? 'text-red-700 dark:text-red-300' : ''}`}>{note.text}</p>}
    </li>
  );
}

/** Adds a dataset: uploaded to the project, or kept on this device and listed by name, size, columns and SHA-256. */
function AddDataset({ projectId }: { projectId: string }) {
  const router = useRouter();
  const keepId = useId();
  const [keep, setKeep] = useState(false);
  const [note, setNote] = useState<Note>(null);
  const add = async (file: File) => {
    const mediaType = acceptedMediaType(file.name);
    if (!mediaType) return setNote({ kind: 'alert', text: `“${file.name}” is not a supported type.` });
    setNote({ kind: 'status', text: keep ? `Keeping ${file.name} on this device…` : `Uploading ${file.name}…` });
    const table = (await previewFile(file).catch(() => null))?.table ?? null;
    const facts = table ? { columns: table.columns.map((c) => ({ name: c.name, type: c.type })), header: table.header, ...(table.rowCount === null ? {} : { rows: table.rowCount }) } : {};
    let response: Response | null = null;
    if (keep) {
      const kept = await keepOnDevice(file, { name: file.name, mediaType });
      if (kept.kind !== 'kept') return setNote({ kind: 'alert', text: kept.kind === 'failed' ? kept.message : `${file.name} could not be kept on this device.` });
      const body = JSON.stringify({ name: file.name, size: kept.size, sha256: kept.sha256, ...facts });
      response = await fetch(`/api/projects/${projectId}/device-files`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).catch(() => null);
      if (response?.status !== 201) return setNote({ kind: 'alert', text: await failureWords(response, `${file.name} could not be added.`) });
    } else {
      const uploaded = await uploadFile(`/api/projects/${projectId}/files`, file, file.name, () => undefined);
      if (uploaded.kind === 'failed') return setNote({ kind: 'alert', text: uploaded.message });
      // What this browser's reader found of its columns (never a value goes with them).
      if (table && uploaded.stored.id) await fetch(`/api/projects/${projectId}/files/${uploaded.stored.id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(facts) }).catch(() => null);
    }
    setNote({ kind: 'status', text: `${file.name} is in the project’s datasets.` });
    router.refresh();
  };
  return (
    <div className="mt-3 space-y-2 rounded-lg border border-dashed border-zinc-300 p-3 text-sm dark:border-zinc-700">
      <label className="inline-block cursor-pointer rounded-lg bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 focus-within:outline focus-within:outline-2 focus-within:outline-offset-2">
        Add a dataset
        <input type="file" className="sr-only" accept={ACCEPT_ATTRIBUTE} onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void add(file);
        }} />
      </label>
      <div className="flex items-start gap-2">
        <input id={keepId} type="checkbox" checked={keep} onChange={(event) => setKeep(event.target.checked)} className="mt-1" />
        <label htmlFor={keepId} className="text-zinc-700 dark:text-zinc-300">
          Keep it on my device: the project lists its name, size, columns and SHA-256, never its bytes; each member uses their own copy.
        </label>
      </div>
      {note && <p role={note.kind} className={note.kind === 'alert' ? 'text-red-700 dark:text-red-300' : ''}>{note.text}</p>}
    </div>
  );
}
