/**
 * Every worker script is served with a policy of its own (ARCHITECTURE.md, "Sandbox"): declared by
 * its target (lib/targets/<id>/meta.ts, `workers`) or among the page's own workers; a script no one
 * declared gets none, and this test names it.
 */
import { describe, expect, it } from 'vitest';
import { TARGET_WORKERS } from '@/lib/targets/registry';
import { workerScripts as builtWorkers } from '../../scripts/engine-sources.mjs';
import { workerScriptCsp, type WorkerCspSettings } from './csp';

const settings: WorkerCspSettings = {
  pyodideIndexPath: '/pyodide/0.0.0/',
  packageBaseUrl: '/pyodide/0.0.0/',
  duckdbAssetPath: '/duckdb/1.0.0/',
  duckdbExtensionUrl: 'https://extensions.duckdb.org',
  webrBasePath: '/webr/0.6.0/',
  rPackageRepoUrl: 'https://repo.r-wasm.org/',
};
const origin = 'https://runpad.example';
const csp = (pathname: string) => workerScriptCsp(pathname, origin, settings, TARGET_WORKERS);

/** The worker scripts the build makes (scripts/engine-sources.mjs): every <name>.worker.ts under lib/ → /workers/<name>.worker.mjs. */
const workerScripts = builtWorkers().map(([name]) => `/workers/${name}.mjs`);

describe('worker policies', () => {
  it('finds the worker scripts the build makes', () => {
    expect(workerScripts).toEqual(expect.arrayContaining(['/workers/python.worker.mjs', '/workers/graphviz.worker.mjs', '/workers/r.worker.mjs']));
  });

  it.each(workerScripts)('%s has a policy of its own', (script) => {
    const policy = csp(script);
    if (!policy) throw new Error(`${script} has no Content-Security-Policy: declare it in its target's \`workers\` (lib/targets/<id>/meta.ts) or in PAGE_WORKERS (lib/security/csp.ts).`);
    expect(policy).toMatch(/^default-src 'none'/);
  });

  it("webR's own worker has its policy, declared by the R target", () => {
    expect(csp('/webr/0.6.0/webr-worker.js')).toContain("'unsafe-eval'");
  });

  it('an undeclared worker gets no policy, not Pyodide’s', () => {
    expect(csp('/workers/unknown.worker.mjs')).toBeNull();
    expect(csp('/workers/python-boot.js')).toBeNull();
  });

  it('each worker may reach only what its engine needs', () => {
    expect(csp('/workers/python.worker.mjs')).toContain(`connect-src ${origin}/pyodide/0.0.0/`);
    expect(csp('/workers/graphviz.worker.mjs')).toBe("default-src 'none'; script-src 'wasm-unsafe-eval'");
    expect(csp('/workers/r.worker.mjs')).toBe(`default-src 'none'; script-src ${origin}/workers/ ${origin}/webr/0.6.0/ 'wasm-unsafe-eval'; connect-src https://repo.r-wasm.org/`);
    expect(csp('/workers/dataset-hash.worker.mjs')).toBe("default-src 'none'");
    expect(csp('/workers/device-keep.worker.mjs')).toBe("default-src 'none'; script-src 'wasm-unsafe-eval'");
    expect(csp('/workers/blob-prefetch.worker.mjs')).toBe("default-src 'none'");
  });
});
