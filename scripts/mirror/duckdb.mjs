// `npm run mirror -- duckdb [extensions…]`: self-hosts DuckDB-wasm's extensions for air-gapped
// installs, laid out as the engine asks for them (lib/package-sources/layout.mjs):
// <out>/<duckdb version>/<platform>/<name>.duckdb_extension.wasm, plus runpad-mirror.json.
// DuckDB's repository publishes no checksum: each file is checked to be a signed extension module
// (DuckDB verifies the signature itself when it loads one), its sha256 is recorded, and a file that
// changed at the source since the last run stops the run (drift) unless --accept-changes.
import fs from 'node:fs';
import path from 'node:path';
import { duckdbExtensionPath, duckdbExtensionUrl } from '../../lib/package-sources/layout.mjs';
import { installedEngineFacts } from './duckdb-engine.mjs';
import { downloadTo } from './fetch.mjs';
import { checkDrift, readManifest, writeManifest } from './manifest.mjs';
import { replaceAtomically } from './replace.mjs';
import { extensionProblem } from './wasm-extension.mjs';

export const OFFICIAL_EXTENSION_REPOSITORY = 'https://extensions.duckdb.org';
/** The readers the app loads on its own (lib/targets/python/engine/runpad/sql.py, EXTENSION_OF). */
export const DEFAULT_EXTENSIONS = ['parquet', 'json', 'excel'];
export const DEFAULT_OUT = 'public/duckdb-extensions';

const EXTENSION_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * Mirrors `extensions` from `source` into `out`. `engine` ({ version, platform }) defaults to what
 * the installed DuckDB-wasm says of itself.
 */
export async function mirrorDuckdbExtensions({ source = OFFICIAL_EXTENSION_REPOSITORY, out = DEFAULT_OUT, extensions = DEFAULT_EXTENSIONS, engine, acceptChanges = false, log = () => {} }) {
  const names = [...new Set(extensions)];
  const invalid = names.filter((name) => !EXTENSION_NAME.test(name));
  if (invalid.length > 0) throw new Error(`not an extension name: ${invalid.join(', ')} (DuckDB's are lowercase letters, digits and _)`);
  const previous = readManifest(path.resolve(out), 'duckdb-extensions');
  const { version, platform } = engine ?? (await installedEngineFacts());
  return replaceAtomically(out, async (staging) => {
    const files = [];
    for (const name of names) {
      const relative = duckdbExtensionPath(version, platform, name);
      const url = duckdbExtensionUrl(source, version, platform, name);
      const target = path.join(staging, relative);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      const { bytes, sha256 } = await downloadTo(url, target);
      const problem = extensionProblem(fs.readFileSync(target));
      if (problem) throw new Error(`${url} is not a DuckDB extension: ${problem}; not mirrored`);
      files.push({ path: relative, sha256, bytes });
      log(`  ✓ ${name} (${relative})`);
    }
    const changed = checkDrift(previous, files, acceptChanges);
    writeManifest(staging, { kind: 'duckdb-extensions', source, createdAt: new Date().toISOString(), duckdbVersion: version, platform, files });
    return { out: path.resolve(out), version, platform, files, changed };
  });
}
