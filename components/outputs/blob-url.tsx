'use client';

import { createContext, useContext } from 'react';

/** How a stored blob is fetched: as the owner, or through a share link on the share page. */
const ShareIdContext = createContext<string | null>(null);

export const BlobAccessProvider = ShareIdContext.Provider;

export function useBlobUrl(): (sha256: string) => string {
  const shareId = useContext(ShareIdContext);
  return (sha256) => (shareId ? `/api/blobs/${sha256}?share=${encodeURIComponent(shareId)}` : `/api/blobs/${sha256}`);
}
