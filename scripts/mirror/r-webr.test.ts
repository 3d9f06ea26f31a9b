import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { WebR } from 'webr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorRPackages } from './r.mjs';
import { directoryRoute, rPackageArchive, startServer, type TestServer } from './test-support';
import { webrRVersion } from './webr-base.mjs';

/**
 * The app's own R loader (lib/targets/r/capture.R: library() installs a missing package with
 * webr::install() from the configured repository) in the installed webR, under Node, pointed at a
 * mirror this command wrote: R reads the mirror's index, resolves the dependencies itself and
 * fetches each package from where the mirror put it. One webR start (seconds) for the whole file.
 */
const R_VERSION = webrRVersion();
const CONTRIB = '/repo/bin/emscripten/contrib/4.6/';
const archives = new Map<string, Buffer>();
const entries: string[] = [];
for (const [name, version, fields] of [
  ['alpha', '1.0', 'Depends: R (>= 4.0.0), beta\nImports: stats\n'],
  ['beta', '0.5-2', 'Imports: gamma (>= 1.0)\n'],
  ['gamma', '1.1', ''],
]) {
  const archive = rPackageArchive(name, version, R_VERSION);
  archives.set(`${name}_${version}.tgz`, archive);
  entries.push(`Package: ${name}\nVersion: ${version}\n${fields}MD5sum: ${createHash('md5').update(archive).digest('hex')}`);
}

let source: TestServer;
let mirror: TestServer;
let dir: string;
let webR: WebR;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-webr-test-'));
  source = await startServer((pathname) => {
    if (pathname === `${CONTRIB}PACKAGES.gz`) return zlib.gzipSync(`${entries.join('\n\n')}\n`);
    return pathname.startsWith(CONTRIB) ? archives.get(pathname.slice(CONTRIB.length)) : undefined;
  });
  const out = path.join(dir, 'r-repo');
  await mirrorRPackages({ source: `${source.origin}/repo/`, out, packages: ['alpha'] });
  mirror = await startServer(directoryRoute('/r-repo/', out));
  webR = new WebR({ interactive: false });
  await webR.init();
}, 120_000);

afterAll(async () => {
  webR?.close();
  await source?.close();
  await mirror?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a mirror made by npm run mirror -- r', () => {
  it("is what the app's R loader installs from: library() of a package and its dependencies", async () => {
    const capture = fs.readFileSync(path.resolve('lib/targets/r/capture.R'), 'utf8');
    await webR.evalRVoid(capture);
    // As the R worker sets it at start (lib/targets/r/engine/r.worker.ts).
    await webR.evalRVoid(`.runpad$repo <- ${JSON.stringify(`${mirror.origin}/r-repo/`)}\n.runpad$repo_reachable <- TRUE`);
    await webR.evalRVoid('.runpad$ensure_package("alpha")');
    const installed = await webR.evalRString('paste(vapply(c("alpha", "beta", "gamma"), function(p) as.character(packageVersion(p)), ""), collapse = " ")');
    expect(installed).toBe('1.0 0.5.2 1.1');
    // R asks for PACKAGES.rds first (the mirror has none: its 404 sends R to PACKAGES.gz), then each
    // package where the mirror put it (twice: webR first tries it as a filesystem image, then unpacks it).
    expect([...new Set(mirror.answered)].sort()).toEqual(['/r-repo/bin/emscripten/contrib/4.6/PACKAGES.gz', ...['alpha_1.0', 'beta_0.5-2', 'gamma_1.1'].map((file) => `/r-repo/bin/emscripten/contrib/4.6/${file}.tgz`)]);
    expect([...new Set(mirror.requests)].sort()).toEqual([
      '/r-repo/bin/emscripten/contrib/4.6/PACKAGES.gz',
      '/r-repo/bin/emscripten/contrib/4.6/PACKAGES.rds',
      '/r-repo/bin/emscripten/contrib/4.6/alpha_1.0.tgz',
      '/r-repo/bin/emscripten/contrib/4.6/beta_0.5-2.tgz',
      '/r-repo/bin/emscripten/contrib/4.6/gamma_1.1.tgz',
    ]);
  });
});
