import 'server-only';
import { headers } from 'next/headers';
import type { TargetConfig } from '@/lib/targets/engine';
import { engineBootScripts } from '@/lib/targets/registry';

/**
 * Starts the engines that start with the page as the HTML arrives (each target's `bootScript`:
 * Python's worker), so an interpreter loads in parallel with the page's own JavaScript rather than
 * after hydration; the page's first engine adopts it (lib/targets/python/boot-worker.client.ts).
 * Async scripts, which React hoists into the head: an inline one waited for the stylesheet
 * (~50–90 ms of a first visit). React loads each once per document.
 */
export async function EngineBoot({ config }: { config: TargetConfig }) {
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return engineBootScripts(config).map((src) => <script key={src} async src={src} nonce={nonce} fetchPriority="high" />);
}
