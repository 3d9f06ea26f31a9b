// `npm run mirror -- r <packages…>`: self-hosts R packages for webR, as a CRAN-like repository
// holding exactly the packages asked for and what they depend on:
// <out>/bin/emscripten/contrib/<R major.minor>/{PACKAGES, PACKAGES.gz, <name>_<version>.tgz},
// plus runpad-mirror.json. Dependencies come from the source's PACKAGES index (Depends and Imports,
// as webr::install() follows them; LinkingTo too with --linking-to); webR's base library is left
// out. Each file is checked against the index's MD5sum and its sha256 recorded.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { rContribPath, rContribUrl, rMinorVersion, rPackageFile } from '../../lib/package-sources/layout.mjs';
import { downloadTo, fetchOptional } from './fetch.mjs';
import { checkDrift, readManifest, writeManifest } from './manifest.mjs';
import { formatPackagesIndex, INSTALL_FIELDS, parsePackagesIndex, resolvePackages } from './r-index.mjs';
import { replaceAtomically } from './replace.mjs';
import { webrBasePackages, webrRVersion } from './webr-base.mjs';

/** webR's public repository (lib/config.server.ts: DEFAULT_R_PACKAGE_REPO_URL). */
export const WEBR_REPOSITORY = 'https://repo.r-wasm.org/';
export const DEFAULT_OUT = 'public/r-repo';
/** A generous ceiling for an index (webR's whole repository lists some thousands of packages). */
const MAX_INDEX_BYTES = 256 * 1024 * 1024;

/** The source's index: PACKAGES.gz, else PACKAGES (as R's available.packages() reads them, after PACKAGES.rds). */
async function fetchIndex(contribUrl, rVersion) {
  const gzipped = await fetchOptional(new URL('PACKAGES.gz', contribUrl).href, MAX_INDEX_BYTES);
  if (gzipped) {
    try {
      return { url: new URL('PACKAGES.gz', contribUrl).href, text: zlib.gunzipSync(gzipped, { maxOutputLength: MAX_INDEX_BYTES }).toString('utf8') };
    } catch (error) {
      throw new Error(`${new URL('PACKAGES.gz', contribUrl).href} is not a readable gzip file (${error.message})`);
    }
  }
  const plain = await fetchOptional(new URL('PACKAGES', contribUrl).href, MAX_INDEX_BYTES);
  if (!plain) throw new Error(`${contribUrl} has no PACKAGES index (neither PACKAGES.gz nor PACKAGES is there): is the source a webR repository with packages for R ${rMinorVersion(rVersion)}?`);
  return { url: new URL('PACKAGES', contribUrl).href, text: plain.toString('utf8') };
}

/**
 * Mirrors `packages` and their dependencies from `source` into `out`. `rVersion` and
 * `basePackages` default to the installed webR's.
 */
export async function mirrorRPackages({ source = WEBR_REPOSITORY, out = DEFAULT_OUT, packages, rVersion = webrRVersion(), basePackages = webrBasePackages(), linkingTo = false, acceptChanges = false, log = () => {} }) {
  if (!packages || packages.length === 0) throw new Error('name the R packages to mirror, e.g. npm run mirror -- r ggplot2');
  // "4.6" counts as 4.6.0 when a package asks for a minimum R.
  if (/^\d+\.\d+$/.test(rVersion)) rVersion = `${rVersion}.0`;
  const contribUrl = rContribUrl(source, rVersion);
  const previous = readManifest(path.resolve(out), 'r-packages');
  const index = await fetchIndex(contribUrl, rVersion);
  const records = parsePackagesIndex(index.text);
  const fields = linkingTo ? [...INSTALL_FIELDS, 'LinkingTo'] : INSTALL_FIELDS;
  const wanted = resolvePackages(records, packages, { basePackages, rVersion, fields });
  if (wanted.length === 0) throw new Error(`${packages.join(', ')}: all in webR's base library already; nothing to mirror`);
  const missingMd5 = wanted.filter((record) => !record.MD5sum).map((record) => record.Package);
  if (missingMd5.length > 0) throw new Error(`${index.url} gives no MD5sum for ${missingMd5.join(', ')}: cannot verify what would be mirrored`);
  return replaceAtomically(out, async (staging) => {
    const contribDir = path.join(staging, rContribPath(rVersion));
    const files = [];
    for (const record of wanted) {
      const file = rPackageFile(record.Package, record.Version, record.Path);
      const target = path.join(contribDir, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      const { bytes, sha256 } = await downloadTo(new URL(file, contribUrl).href, target, { md5: record.MD5sum });
      files.push({ path: `${rContribPath(rVersion)}${file}`, sha256, bytes });
      log(`  ✓ ${record.Package} ${record.Version}`);
    }
    const changed = checkDrift(previous, files, acceptChanges);
    // The index lists exactly what is here; no PACKAGES.rds (R falls back to PACKAGES.gz when it is absent).
    const text = formatPackagesIndex(wanted);
    fs.writeFileSync(path.join(contribDir, 'PACKAGES'), text);
    fs.writeFileSync(path.join(contribDir, 'PACKAGES.gz'), zlib.gzipSync(text));
    writeManifest(staging, { kind: 'r-packages', source, createdAt: new Date().toISOString(), rVersion, files });
    return { out: path.resolve(out), rVersion, packages: wanted.map((record) => `${record.Package} ${record.Version}`), files, changed };
  });
}
