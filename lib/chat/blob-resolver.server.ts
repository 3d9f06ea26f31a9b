/**
 * A chat request's figures, resolved together. The model's context is rebuilt from the whole
 * history at every step of an answer, and each figure in it cost a database lookup and a read of
 * the blob store: a conversation of a few dozen figures made hundreds of lookups per answer (the
 * end-to-end suite's server spent most of its database time on them). Here the lookups asked
 * for in one turn of the event loop are one query, and each figure is read once per request.
 */
import 'server-only';
import type { ResolveBlob } from '@/lib/ai/run-to-model.server';
import type { BlobRef } from '@/lib/db/queries/blobs.server';

type ResolvedBlob = Awaited<ReturnType<ResolveBlob>>;

export function createBlobResolver(
  lookup: (sha256s: string[]) => Promise<Map<string, BlobRef>>,
  read: (sha256: string) => Promise<Buffer | null>,
): ResolveBlob {
  const resolved = new Map<string, Promise<ResolvedBlob>>();
  let batch: { sha256s: string[]; found: Promise<Map<string, BlobRef>> } | null = null;

  function lookupSoon(sha256: string): Promise<BlobRef | undefined> {
    if (!batch) {
      const sha256s: string[] = [];
      const found = new Promise<Map<string, BlobRef>>((resolve, reject) => {
        // After every lookup the current walk of the history asks for (they start in one task).
        setImmediate(() => {
          batch = null;
          lookup(sha256s).then(resolve, reject);
        });
      });
      batch = { sha256s, found };
    }
    batch.sha256s.push(sha256);
    return batch.found.then((found) => found.get(sha256));
  }

  return (sha256) => {
    let result = resolved.get(sha256);
    if (!result) {
      result = lookupSoon(sha256).then(async (ref) => {
        if (!ref) return null;
        const bytes = await read(sha256);
        return bytes ? { mediaType: ref.mediaType, base64: bytes.toString('base64') } : null;
      });
      resolved.set(sha256, result);
    }
    return result;
  };
}
