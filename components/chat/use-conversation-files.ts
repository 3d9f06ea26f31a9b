'use client';

/**
 * The conversation's files: those it has (stored, or kept on this device), the uploads in progress,
 * the files as every engine sees them under /data/, and the check of a dropped file against them.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { expectedDeviceFile, withProjectDatasets, type DataFile, type DataFileLocation, type ProjectDatasets } from '@/lib/files/data-file';
import type { Attachment } from '@/lib/messages/attachment';
import type { MissingFiles } from '@/components/files/drop-same-file';
import { useUploads } from '@/components/files/use-uploads';

export type ConversationFile = Pick<Attachment, 'name' | 'sha256' | 'size' | 'mediaType'> & { location: DataFileLocation; salts?: readonly string[] };

export function useConversationFiles(conversationId: string, initialFiles: ConversationFile[], projectDatasets: ProjectDatasets | null, uploadFileBytes: number) {
  const [files, setFiles] = useState<ConversationFile[]>(initialFiles);
  const addStoredFile = useCallback(
    (file: Attachment) => setFiles((list) => [...list.filter((f) => f.name !== file.name), { name: file.name, sha256: file.sha256, size: file.size, mediaType: file.mediaType, location: file.location ?? 'account' }]),
    [],
  );
  const uploads = useUploads(conversationId, addStoredFile, uploadFileBytes);
  // The conversation's files, and its project's datasets, as every engine should see them under
  // /data/; a file still being kept is read in place from the dropped File meanwhile, unless its
  // name is taken (the server renames it).
  const withProject = useMemo(() => withProjectDatasets(files, projectDatasets), [files, projectDatasets]);
  const dataFilesRef = useRef<DataFile[]>([]);
  const { inPlace } = uploads;
  useEffect(() => {
    const listed = withProject.files;
    dataFilesRef.current = [...listed, ...inPlace.filter((file) => !listed.some((other) => other.name === file.name))];
  }, [withProject, inPlace]);
  const dataFiles = useCallback(() => dataFilesRef.current, []);
  // A failed cell's "Drop the same file to continue" checks a dropped file against this conversation's (or its project's).
  const missingFiles = useMemo<MissingFiles>(
    () => ({
      expected: (name) => expectedDeviceFile(withProject.listed, name),
    }),
    [withProject],
  );
  return { uploads, dataFiles, missingFiles };
}
