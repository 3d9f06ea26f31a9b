import 'server-only';
import { headers } from 'next/headers';
import { pythonBootScriptUrl, type WorkerLocation } from '@/lib/targets/python/worker-url';

/**
 * Starts the Python worker as the HTML arrives, so the interpreter loads in parallel with the
 * page's own JavaScript rather than after hydration; the first kernel adopts it
 * (lib/targets/python/boot-worker.client.ts). An async script, which React hoists into the head: an inline one
 * waited for the stylesheet (~50–90 ms of a first visit). React loads it once per document.
 */
export async function KernelBoot({ location }: { location: WorkerLocation }) {
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return <script async src={pythonBootScriptUrl(location)} nonce={nonce} fetchPriority="high" />;
}
