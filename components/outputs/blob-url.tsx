'use client';

import { createContext, useContext } from 'react';

/**
 * How a stored blob is fetched: as the owner, through a share link on the share page, or as a
 * reader of a conversation shared to them (its page at /c/<id>).
 */
export type BlobAccess = { share: string } | { conversation: string } | null;
const BlobAccessContext = createContext<BlobAccess>(null);

export const BlobAccessProvider = BlobAccessContext.Provider;

export function useBlobUrl(): (sha256: string) => string {
  const access = useContext(BlobAccessContext);
  if (access && 'share' in access) return (sha256) => `/api/blobs/${sha256}?share=${encodeURIComponent(access.share)}`;
  if (access) return (sha256) => `/api/blobs/${sha256}?conversation=${encodeURIComponent(access.conversation)}`;
  return (sha256) => `/api/blobs/${sha256}`;
}
