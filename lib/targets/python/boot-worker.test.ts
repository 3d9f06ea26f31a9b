import { describe, expect, it, vi } from 'vitest';
import { BOOT_WORKER_GLOBAL, startBootWorker, takeBootWorker } from './boot-worker.client';
import { BOOT_SCRIPT_PARAM, pythonBootScriptUrl, pythonWorkerUrl } from './worker-url';

const location = { pyodideIndexPath: '/pyodide/1.0/', packageBaseUrl: 'https://packages.example/', packageLockUrl: '/pyodide/1.0/pyodide-lock.json' };
const url = pythonWorkerUrl(location);

function fakeWorker() {
  return { terminate: vi.fn() } as unknown as Worker & { terminate: ReturnType<typeof vi.fn> };
}

describe('the boot worker', () => {
  it('is started once and handed to the kernel that asks for the same URL', () => {
    const scope = {};
    const worker = fakeWorker();
    const start = vi.fn(() => worker);
    startBootWorker(scope, url, start);
    startBootWorker(scope, url, start);
    expect(start).toHaveBeenCalledTimes(1);
    expect(takeBootWorker(url, scope)).toBe(worker);
    expect(takeBootWorker(url, scope)).toBeNull();
  });

  it('is not started once a kernel has looked for it (a script that arrives after hydration)', () => {
    const scope = {};
    expect(takeBootWorker(url, scope)).toBeNull();
    const start = vi.fn(fakeWorker);
    startBootWorker(scope, url, start);
    expect(start).not.toHaveBeenCalled();
    expect(scope).toEqual({ [BOOT_WORKER_GLOBAL]: 'taken' });
  });

  it('is ended when it was started for another configuration', () => {
    const scope = {};
    const worker = fakeWorker();
    startBootWorker(scope, url, () => worker);
    expect(takeBootWorker(pythonWorkerUrl({ ...location, pyodideIndexPath: '/pyodide/2.0/' }), scope)).toBeNull();
    expect(worker.terminate).toHaveBeenCalled();
  });

  it('starts nothing but the Python worker, whatever URL the script is given', () => {
    const start = vi.fn(fakeWorker);
    for (const other of ['https://evil.example/workers/python.worker.mjs?x', '/api/conversations', '//evil.example/x', '/workers/r.worker.mjs?x', '/workers/python.worker.mjs']) {
      startBootWorker({}, other, start);
    }
    expect(start).not.toHaveBeenCalled();
  });

  it('leaves the kernel to start its own when the worker cannot be started', () => {
    const scope = {};
    startBootWorker(scope, url, () => {
      throw new Error('blocked');
    });
    expect(takeBootWorker(url, scope)).toBeNull();
  });

  it("reads the worker's URL back from the boot script's own", () => {
    const script = new URL(pythonBootScriptUrl(location), 'http://app.example');
    expect(script.pathname).toBe('/workers/python-boot.js');
    expect(script.searchParams.get(BOOT_SCRIPT_PARAM)).toBe(url);
  });
});
