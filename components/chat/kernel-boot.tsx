import { headers } from 'next/headers';
import { BOOT_WORKER_GLOBAL } from '@/lib/runtime/boot-worker';
import { pythonWorkerUrl, type WorkerLocation } from '@/lib/runtime/worker-url';

/**
 * Starts the Python worker from an inline script as the HTML arrives, so the interpreter loads in
 * parallel with the page's own JavaScript rather than after hydration; the first kernel adopts it
 * (lib/runtime/boot-worker.ts). Classic, not module: a module script would wait for the parser.
 * React does not execute scripts it inserts on client navigation, so this runs on full loads only.
 */
export async function KernelBoot({ location }: { location: WorkerLocation }) {
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  // JSON with "<" escaped, so the URL cannot close the script element.
  const url = JSON.stringify(pythonWorkerUrl(location)).replaceAll('<', '\\u003c');
  const script = `try{window.${BOOT_WORKER_GLOBAL}={url:${url},worker:new Worker(${url},{type:'module',name:'python'})}}catch(e){}`;
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} />;
}
