import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rContribUrl, rPackageFile, rPackagesIndexUrl } from '../../lib/package-sources/layout.mjs';
import { MANIFEST_FILE } from './manifest.mjs';
import { mirrorRPackages } from './r.mjs';
import { parsePackagesIndex } from './r-index.mjs';
import { directoryRoute, rPackageArchive, startServer, unusedOrigin, type TestServer } from './test-support';
import { webrRVersion } from './webr-base.mjs';

const R_VERSION = webrRVersion();
const CONTRIB = '/repo/bin/emscripten/contrib/4.6/';
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The fake webR repository: archives by file name, and the index entries that describe them. */
const archives = new Map<string, Buffer>();
const entries: string[] = [];
function addPackage(name: string, version: string, fields: string, options: { md5?: string } = {}): void {
  const archive = rPackageArchive(name, version, R_VERSION);
  archives.set(`${name}_${version}.tgz`, archive);
  entries.push(`Package: ${name}\nVersion: ${version}\n${fields}MD5sum: ${options.md5 ?? md5(archive)}\nNeedsCompilation: no`);
}
addPackage('alpha', '1.0', 'Depends: R (>= 4.0.0), beta\nImports: stats, utils\n');
addPackage('beta', '0.5-2', 'Imports: gamma (>= 1.0)\nLinkingTo: cpp.headers\n');
addPackage('gamma', '1.1', '');
addPackage('cpp.headers', '3.0', '');
addPackage('broken', '1.0', 'Imports: gamma\n', { md5: '0'.repeat(32) });
entries.push('Package: absent\nVersion: 1.0\nMD5sum: 00000000000000000000000000000000');
entries.push('Package: cut\nVersion: 1.0\nMD5sum: 00000000000000000000000000000000');
const indexText = () => `${entries.join('\n\n')}\n`;

let source: TestServer;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-r-test-'));
  source = await startServer((pathname) => {
    if (pathname === `${CONTRIB}PACKAGES.gz`) return zlib.gzipSync(indexText());
    if (pathname === `${CONTRIB}cut_1.0.tgz`) return 'cut';
    if (pathname.startsWith(CONTRIB)) return archives.get(pathname.slice(CONTRIB.length));
    // A second "repository" that has only the plain index.
    if (pathname === `/plain${CONTRIB.slice('/repo'.length)}PACKAGES`) return Buffer.from(indexText());
    if (pathname.startsWith(`/plain${CONTRIB.slice('/repo'.length)}`)) return archives.get(path.basename(pathname));
    return undefined;
  });
});

afterAll(async () => {
  await source.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const run = (out: string, packages: string[], extra: { acceptChanges?: boolean; linkingTo?: boolean; source?: string } = {}) =>
  mirrorRPackages({ source: `${source.origin}/repo/`, out, packages, ...extra });
const listing = (out: string) => fs.readdirSync(out, { recursive: true, encoding: 'utf8' }).sort();

describe('npm run mirror -- r', () => {
  it('mirrors the packages and their dependencies, laid out where webR and the app ask for them', async () => {
    const out = path.join(dir, 'happy');
    const result = await run(out, ['alpha']);
    expect(result.packages).toEqual(['alpha 1.0', 'beta 0.5-2', 'gamma 1.1']);
    // webr::install() reads <repo>/bin/emscripten/contrib/<R major.minor>/ and fetches <name>_<version>.tgz there.
    expect(listing(out)).toEqual([
      'bin',
      'bin/emscripten',
      'bin/emscripten/contrib',
      'bin/emscripten/contrib/4.6',
      'bin/emscripten/contrib/4.6/PACKAGES',
      'bin/emscripten/contrib/4.6/PACKAGES.gz',
      'bin/emscripten/contrib/4.6/alpha_1.0.tgz',
      'bin/emscripten/contrib/4.6/beta_0.5-2.tgz',
      'bin/emscripten/contrib/4.6/gamma_1.1.tgz',
      MANIFEST_FILE,
    ]);
    // Served as a web server would, the mirror answers the URLs the app's own layout code builds.
    const mirror = await startServer(directoryRoute('/r-repo/', out));
    try {
      const repoUrl = `${mirror.origin}/r-repo/`;
      expect((await fetch(rPackagesIndexUrl(repoUrl, R_VERSION), { method: 'HEAD' })).status).toBe(200);
      for (const [name, version] of [['alpha', '1.0'], ['beta', '0.5-2'], ['gamma', '1.1']]) {
        const response = await fetch(new URL(rPackageFile(name, version), rContribUrl(repoUrl, R_VERSION)));
        expect(Buffer.from(await response.arrayBuffer())).toEqual(archives.get(`${name}_${version}.tgz`));
      }
    } finally {
      await mirror.close();
    }
    // Its index lists exactly what is there, as the source described it; PACKAGES.gz is the same text.
    const index = fs.readFileSync(path.join(out, 'bin/emscripten/contrib/4.6/PACKAGES'), 'utf8');
    expect(parsePackagesIndex(index).map((r) => r.Package)).toEqual(['alpha', 'beta', 'gamma']);
    expect(index).toContain(`Package: beta\nVersion: 0.5-2\nImports: gamma (>= 1.0)\nLinkingTo: cpp.headers\nMD5sum: ${md5(archives.get('beta_0.5-2.tgz')!)}`);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(out, 'bin/emscripten/contrib/4.6/PACKAGES.gz'))).toString('utf8')).toBe(index);
    // The manifest records the sha256 of each file.
    const manifest = JSON.parse(fs.readFileSync(path.join(out, MANIFEST_FILE), 'utf8'));
    expect(manifest).toMatchObject({ kind: 'r-packages', source: `${source.origin}/repo/`, rVersion: R_VERSION });
    expect(manifest.files).toContainEqual({ path: 'bin/emscripten/contrib/4.6/gamma_1.1.tgz', sha256: sha256(archives.get('gamma_1.1.tgz')!), bytes: archives.get('gamma_1.1.tgz')!.length });
  });

  it('reads a plain PACKAGES when there is no PACKAGES.gz, and follows LinkingTo only when asked', async () => {
    const out = path.join(dir, 'plain');
    const result = await run(out, ['beta'], { source: `${source.origin}/plain/`, linkingTo: true });
    expect(result.packages).toEqual(['beta 0.5-2', 'cpp.headers 3.0', 'gamma 1.1']);
  });

  it.each([
    ['an MD5 mismatch', ['broken'], `${CONTRIB}broken_1.0.tgz: md5 mismatch (expected 00000000000000000000000000000000`],
    ['a file missing from the repository', ['absent'], `${CONTRIB}absent_1.0.tgz: HTTP 404 (not found)`],
    ['an interrupted download', ['cut'], 'cut_1.0.tgz: download interrupted'],
    ['a package the index does not list', ['nope'], '"nope" is not in the repository\'s PACKAGES index'],
  ])('fails in words on %s and leaves the previous mirror untouched', async (_, packages, message) => {
    const out = path.join(dir, `keep-${packages[0]}`);
    await run(out, ['gamma']);
    const before = listing(out).map((name) => [name, fs.statSync(path.join(out, name)).isFile() ? sha256(fs.readFileSync(path.join(out, name))) : 'dir']);
    await expect(run(out, packages)).rejects.toThrow(message);
    expect(listing(out).map((name) => [name, fs.statSync(path.join(out, name)).isFile() ? sha256(fs.readFileSync(path.join(out, name))) : 'dir'])).toEqual(before);
    expect(fs.readdirSync(dir).filter((name) => name.includes('.partial-') || name.includes('.previous-'))).toEqual([]);
  });

  it('fails in words when the source cannot be reached', async () => {
    const out = path.join(dir, 'unreachable');
    const origin = await unusedOrigin();
    await expect(mirrorRPackages({ source: `${origin}/repo/`, out, packages: ['alpha'] })).rejects.toThrow(
      `${origin}/repo/bin/emscripten/contrib/4.6/PACKAGES.gz cannot be reached (ECONNREFUSED)`,
    );
    expect(fs.existsSync(out)).toBe(false);
  });

  it('notices a package that changed at the source under the same name, and takes it only when told to', async () => {
    const out = path.join(dir, 'drift');
    await run(out, ['gamma']);
    const original = archives.get('gamma_1.1.tgz')!;
    const rebuilt = rPackageArchive('gamma', '1.1', `${R_VERSION} rebuilt`);
    archives.set('gamma_1.1.tgz', rebuilt);
    const at = entries.findIndex((entry) => entry.startsWith('Package: gamma\n'));
    const entry = entries[at];
    entries[at] = entry.replace(md5(original), md5(rebuilt));
    try {
      await expect(run(out, ['gamma'])).rejects.toThrow(`bin/emscripten/contrib/4.6/gamma_1.1.tgz (sha256 was ${sha256(original)}, now ${sha256(rebuilt)}). If the change is expected, run again with --accept-changes`);
      expect(fs.readFileSync(path.join(out, 'bin/emscripten/contrib/4.6/gamma_1.1.tgz'))).toEqual(original);
      const accepted = await run(out, ['gamma'], { acceptChanges: true });
      expect(accepted.changed).toEqual(['bin/emscripten/contrib/4.6/gamma_1.1.tgz']);
      expect(fs.readFileSync(path.join(out, 'bin/emscripten/contrib/4.6/gamma_1.1.tgz'))).toEqual(rebuilt);
    } finally {
      archives.set('gamma_1.1.tgz', original);
      entries[at] = entry;
    }
  });

  it('refuses to replace a directory it did not write', async () => {
    const out = path.join(dir, 'not-a-mirror');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'precious.txt'), 'keep me');
    await expect(run(out, ['gamma'])).rejects.toThrow('is not a mirror written by this command');
    expect(fs.readdirSync(out)).toEqual(['precious.txt']);
  });
});
