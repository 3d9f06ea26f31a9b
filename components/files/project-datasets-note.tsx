'use client';

/**
 * Above the composer of a conversation in a project: the project's datasets it has under /data, by
 * name, each a device-kept one said to be on this device or to need the person's own copy (a run
 * that reads it then asks for it: components/files/drop-same-file.tsx). Links to the project's page.
 */
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { deviceFile } from '@/lib/files/device-files.client';
import type { ProjectDatasets } from '@/lib/files/data-file';

export function ProjectDatasetsNote({ datasets }: { datasets: ProjectDatasets }) {
  const held = useHeldOnDevice(datasets);
  return (
    <section aria-label="The project’s datasets" data-testid="project-datasets" className="mb-2 text-xs text-zinc-600 dark:text-zinc-400">
      In /data from the project{' '}
      <Link href={`/p/${datasets.projectId}`} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
        {datasets.name}
      </Link>
      :{' '}
      <ul className="inline">
        {datasets.files.map((file, index) => (
          <li key={file.name} className="inline" data-location={file.location}>
            {index > 0 && ', '}
            <span className="font-mono">{file.name}</span>
            {file.location === 'device' && <span> ({held.has(file.sha256) ? 'your copy on this device' : 'needs your copy'})</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The SHA-256s of the project's device-kept datasets this device holds. */
export function useHeldOnDevice(datasets: Pick<ProjectDatasets, 'files'>, refresh = 0): ReadonlySet<string> {
  const [held, setHeld] = useState<ReadonlySet<string>>(new Set());
  // Asked again when the list itself or `refresh` changes, not when a caller wraps the same list in
  // a new object (`{ files }` on every render asked, set and rendered again without end).
  const { files } = datasets;
  useEffect(() => {
    let live = true;
    const kept = files.filter((file) => file.location === 'device');
    void Promise.all(kept.map(async (file) => ((await deviceFile(file.sha256).catch(() => null)) ? file.sha256 : null))).then((found) => {
      if (live) setHeld(new Set(found.filter((sha): sha is string => sha !== null)));
    });
    return () => {
      live = false;
    };
  }, [files, refresh]);
  return held;
}
