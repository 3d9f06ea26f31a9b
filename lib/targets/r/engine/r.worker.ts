/**
 * The R worker: hosts webR (R compiled to WebAssembly) for one conversation, off the page's thread.
 *
 * webR's own worker (`webr-worker.js`, served from /webr/<version>/ with its own CSP) runs R; this
 * worker is webR's "main thread": it starts R over the SharedArrayBuffer channel (the app is
 * cross-origin isolated, and that channel is the one that can interrupt R), loads Runpad's R side
 * (lib/targets/r/capture.R) and turns what a run did into the output protocol. It answers nobody
 * on its global scope: the page sends one `connect` message carrying a MessagePort, and everything
 * after that travels on the port (lib/targets/r/protocol.client.ts). Terminating this worker ends R too.
 */
import { ChannelType, WebR } from 'webr';
import captureSource from '@/lib/targets/r/capture.R';
import { connectMessageSchema, R_LIMITS, requestSchema, type Reply, type Request } from '@/lib/targets/r/protocol.client';
import { eventsToOutputs, fromWebR, parseEvents, rRunSchema } from '@/lib/targets/r/events.client';
import { mediaTypeOfName } from '@/lib/targets/r/media-type.client';
import { OUTPUT_CAPS } from '@/lib/runtime/limits';
import type { RunFailure } from '@/lib/runtime/run-failure';
import { rPackagesIndexUrl } from '@/lib/package-sources/layout.mjs';
import { lockDownRWorker, webrWorkerLockdownSource } from './r-lockdown';
import { DEVICE_MOUNT_FILE, deviceMountPath } from '@/lib/files/device-mount';

let webR: WebR | null = null;

function onConnect(event: MessageEvent): void {
  const connect = connectMessageSchema.safeParse(event.data);
  if (!connect.success) return;
  // The first valid connect wins; the global scope is not listened to after it.
  self.removeEventListener('message', onConnect);
  void serve(connect.data.port, connect.data.baseUrl, connect.data.repoUrl);
}
self.addEventListener('message', onConnect);

/** R strings in R source: every character that could end or escape the literal is escaped. */
function rString(value: string): string {
  return JSON.stringify(value);
}

/** How long the package repository has to answer at start before R is told it cannot be reached. */
const REPO_PROBE_TIMEOUT_MS = 4_000;

/**
 * Whether the R package repository answers: one HEAD of its package listing for this R, asked
 * once, while R starts (never at page load: R starts on the first R run). The page says so (the
 * package notice, the model's prompt), and library() fails at once instead of after a timeout.
 */
async function repositoryAnswers(repoUrl: string, rVersion: Promise<string>): Promise<boolean> {
  try {
    const listing = rPackagesIndexUrl(repoUrl, await rVersion);
    const response = await fetch(listing, { method: 'HEAD', signal: AbortSignal.timeout(REPO_PROBE_TIMEOUT_MS) });
    return response.ok;
  } catch {
    return false; // unreachable, refused by the CSP, or too slow
  }
}

async function startR(baseUrl: string, repoUrl: string): Promise<{ r: WebR; repoAnswers: boolean }> {
  const r = new WebR({
    baseUrl,
    channelType: ChannelType.SharedArrayBuffer,
    interactive: false,
    // No default package repository URL baked in: Runpad's library() shim installs from repoUrl.
    repoUrl,
  });
  await r.init();
  const probe = repositoryAnswers(repoUrl, r.evalRString('paste(R.version$major, R.version$minor, sep = ".")'));
  await r.FS.mkdir('/data').catch(() => undefined);
  await r.FS.mkdir('/output').catch(() => undefined);
  await r.evalRVoid(captureSource);
  const caps = OUTPUT_CAPS;
  const repoAnswers = await probe;
  await r.evalRVoid(
    [
      `.runpad$repo <- ${rString(repoUrl)}`,
      `.runpad$repo_reachable <- ${repoAnswers ? 'TRUE' : 'FALSE'}`,
      `.runpad$caps <- list(rows = ${caps.tableRows}L, columns = ${caps.tableColumns}L, chars = ${caps.textChars}L, stream_bytes = ${caps.streamChars}L, plot_width = ${R_LIMITS.plotWidth}L, plot_height = ${R_LIMITS.plotHeight}L)`,
      `invisible(mem.maxVSize(${R_LIMITS.vectorHeapMb}))`,
      'options(warn = 1, width = 100)',
      'setwd("/data")',
    ].join('\n'),
  );
  // Before any user code: webR's worker loses storage, messaging, workers and sockets, its network
  // is limited to webR's files and the repository (lib/targets/r/engine/r-lockdown.ts); then this worker too.
  const allowed = [new URL(baseUrl, self.location.href).href, new URL(repoUrl, self.location.href).href];
  const locked = await r.evalRString('webr::eval_js(code)', { env: { code: webrWorkerLockdownSource(allowed) } });
  if (locked !== 'locked') throw new Error('the R sandbox could not be set up');
  lockDownRWorker();
  return { r, repoAnswers };
}

async function serve(port: MessagePort, baseUrl: string, repoUrl: string): Promise<void> {
  let started: Awaited<ReturnType<typeof startR>>;
  try {
    started = await startR(baseUrl, repoUrl);
  } catch (error) {
    reply(port, { type: 'failed', failure: { kind: 'engine-start', engine: 'R', detail: messageOf(error).slice(0, R_LIMITS.maxMessageChars / 2) } });
    port.close();
    return;
  }
  webR = started.r;
  port.addEventListener('message', (event) => void handle(port, event.data));
  port.start();
  reply(port, { type: 'ready', version: started.r.version, packages: started.repoAnswers ? 'reachable' : 'unreachable' });
}

/** Runs, file writes and reads one at a time, in arrival order; an interrupt goes straight through. */
let queue: Promise<void> = Promise.resolve();

function handle(port: MessagePort, data: unknown): void {
  const request = requestSchema.safeParse(data);
  if (!request.success) return;
  if (request.data.type === 'interrupt') {
    webR?.interrupt();
    return;
  }
  const work = request.data;
  // perform answers its own failures; what is left is posting an answer failing (one that cannot be
  // cloned): the page is told at once, instead of waiting for the run's time limit.
  queue = queue.then(() => perform(port, work)).catch((error: unknown) => reply(port, requestFailed(work.id, error)));
}

/** A request that failed in this worker (R's machinery, not the code's own error, which a run reports). */
function requestFailed(id: number, error: unknown): Reply {
  const failure: RunFailure = { kind: 'crashed', engine: 'R', cause: 'fault', stateLost: false, detail: messageOf(error).slice(0, R_LIMITS.maxMessageChars / 2) };
  return { type: 'request-failed', id, failure };
}

async function perform(port: MessagePort, request: Exclude<Request, { type: 'interrupt' }>): Promise<void> {
  const r = webR;
  if (!r) throw new Error('R is not running');
  try {
    switch (request.type) {
      case 'run':
        reply(port, await run(r, request.id, request.code));
        return;
      case 'write-file':
        // A link left by a file kept on the device (now in the account) is replaced, not written through.
        await r.evalRVoid('if (nzchar(Sys.readlink(path))) unlink(path)', { env: { path: request.path } });
        await r.FS.writeFile(request.path, request.bytes);
        reply(port, { type: 'done', id: request.id });
        return;
      case 'mount-file':
        await mountDeviceFileInR(r, request.name, request.sha256, request.file);
        reply(port, { type: 'done', id: request.id });
        return;
      case 'read-file': {
        const bytes = (await r.FS.readFile(request.path)).slice();
        port.postMessage({ type: 'file', id: request.id, bytes } satisfies Reply, [bytes.buffer]);
        return;
      }
    }
  } catch (error) {
    reply(port, requestFailed(request.id, error));
  }
}

/** The hashes mounted in this R (one WORKERFS mount each; two names of the same bytes share it). */
const mountedDevice = new Set<string>();

/**
 * A file kept on the device, read by R where it lies: the OPFS File mounted with WORKERFS through
 * webR's FS.mount (webR takes WORKERFS contents as a `packages` entry: a Blob and where each file
 * is in it) under /mnt/device/<sha256>/, linked at /data/<name> by R itself. R's readers read it in
 * ranges from the disk; what they build from it lives in R's memory, as with any file.
 */
async function mountDeviceFileInR(r: WebR, name: string, sha256: string, file: Blob): Promise<void> {
  const target = deviceMountPath(sha256);
  const dir = target.slice(0, target.lastIndexOf('/'));
  if (!mountedDevice.has(sha256)) {
    await r.evalRVoid('dir.create(dir, recursive = TRUE, showWarnings = FALSE)', { env: { dir } });
    await r.FS.mount('WORKERFS', { packages: [{ blob: file, metadata: { files: [{ filename: `/${DEVICE_MOUNT_FILE}`, start: 0, end: file.size }] } }] }, dir);
    mountedDevice.add(sha256);
  }
  await r.evalRVoid('unlink(link); if (!file.symlink(target, link)) stop("could not link ", link)', { env: { link: `/data/${name}`, target } });
}

async function run(r: WebR, id: number, code: string): Promise<Reply> {
  const shelter = await new r.Shelter();
  try {
    const value = await shelter.evalR('.runpad$run(code)', { env: { code } });
    const parsed = rRunSchema.safeParse(fromWebR(await value.toJs()));
    if (!parsed.success) return { type: 'request-failed', id, failure: { kind: 'reply-invalid', engine: 'R', dropped: 1 } };
    const { events, dropped } = parseEvents(parsed.data.events);
    const images = new Map<string, string>();
    for (const event of events) {
      if (event.type === 'image' && event.path) {
        const bytes = await r.FS.readFile(event.path).catch(() => null);
        if (bytes && bytes.byteLength <= OUTPUT_CAPS.imageBytes) images.set(event.path, base64(bytes));
      }
    }
    const outputs = eventsToOutputs(events, (path) => images.get(path) ?? null, mediaTypeOfName);
    return { type: 'ran', id, status: parsed.data.status, outputs, dropped };
  } finally {
    await shelter.purge();
  }
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function reply(port: MessagePort, message: Reply): void {
  port.postMessage(message);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
