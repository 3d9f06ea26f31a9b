// A CRAN-like repository's PACKAGES index (Debian control format, one record per package): read,
// validated (it comes from the network: untrusted), resolved to the packages a request needs, and
// written back for a mirror holding exactly those. Pure: no I/O.
import { z } from 'zod';

// R's own rules (tools:::.standard_regexps()): valid_package_name, valid_package_version.
const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9.]*[A-Za-z0-9]$/;
const PACKAGE_VERSION = /^\d+([.-]\d+)+$/;
// The optional Path field names a subdirectory of the contrib directory; nothing that climbs out.
const INDEX_PATH = /^(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

const recordSchema = z.object({
  Package: z.string().regex(PACKAGE_NAME, 'not a valid R package name'),
  Version: z.string().regex(PACKAGE_VERSION, 'not a valid R package version'),
  Depends: z.string().optional(),
  Imports: z.string().optional(),
  LinkingTo: z.string().optional(),
  MD5sum: z.string().regex(/^[0-9a-fA-F]{32}$/, 'not an MD5 checksum').optional(),
  Path: z.string().regex(INDEX_PATH, 'not a relative path inside the repository').optional(),
});

/** The dependency fields webR's installer follows (webr::install(): Depends and Imports). */
export const INSTALL_FIELDS = ['Depends', 'Imports'];

/**
 * Records of a PACKAGES file: each with its fields and its own text (kept verbatim for the mirror's
 * index). Throws naming the record when one is not a valid package entry.
 */
export function parsePackagesIndex(text) {
  const blocks = text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/).map((block) => block.replace(/^\n+|\n+$/g, '')).filter((block) => block.trim() !== '');
  return blocks.map((block, index) => {
    const fields = {};
    let current = null;
    for (const line of block.split('\n')) {
      if (/^[ \t]/.test(line) && current) {
        fields[current] += `\n${line.trim()}`;
        continue;
      }
      const match = /^([^\s:]+):[ \t]*(.*)$/.exec(line);
      if (!match) throw new Error(`the PACKAGES index is not valid: record ${index + 1} has a line that is not "Field: value" (${JSON.stringify(line.slice(0, 80))})`);
      current = match[1];
      fields[current] = match[2];
    }
    const parsed = recordSchema.safeParse(fields);
    if (!parsed.success) {
      const problem = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
      throw new Error(`the PACKAGES index is not valid: record ${index + 1}${fields.Package ? ` (${String(fields.Package).slice(0, 60)})` : ''}: ${problem}`);
    }
    return { ...parsed.data, text: block };
  });
}

/** -1, 0 or 1 as R's compareVersion(): numeric components split on "." and "-". */
export function compareVersions(a, b) {
  const x = a.split(/[.-]/).map(Number);
  const y = b.split(/[.-]/).map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const d = (x[i] ?? -1) - (y[i] ?? -1);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

const DEPENDENCY = /^([A-Za-z][A-Za-z0-9.]*)\s*(?:\(\s*(>=|<=|==|!=|>|<)\s*([0-9][0-9.-]*)\s*\))?$/;

/** The entries of a Depends/Imports/LinkingTo field: name and optional version requirement. */
export function parseDependencies(field, owner) {
  if (!field) return [];
  return field
    .split(',')
    .map((entry) => entry.replace(/\s+/g, ' ').trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const match = DEPENDENCY.exec(entry);
      if (!match) throw new Error(`the PACKAGES index is not valid: ${owner} lists the dependency "${entry.slice(0, 80)}"`);
      return { name: match[1], op: match[2], version: match[3] };
    });
}

function satisfies(version, op, wanted) {
  const c = compareVersions(version, wanted);
  return { '>=': c >= 0, '<=': c <= 0, '==': c === 0, '!=': c !== 0, '>': c > 0, '<': c < 0 }[op];
}

/**
 * The records to mirror for `requested`: each package and, recursively, what its `fields` name,
 * leaving out R itself and the base library (`basePackages`). As available.packages() does, an
 * entry needing a newer R than `rVersion` does not count, and of several entries the newest wins.
 * Throws, in words, when a package or a dependency cannot be had from this index.
 */
export function resolvePackages(records, requested, { basePackages, rVersion, fields = INSTALL_FIELDS }) {
  const byName = new Map();
  const tooNew = new Map();
  for (const record of records) {
    const needsR = parseDependencies(record.Depends, record.Package).find((dependency) => dependency.name === 'R' && dependency.op);
    if (needsR && !satisfies(rVersion, needsR.op, needsR.version)) {
      tooNew.set(record.Package, `R ${needsR.op} ${needsR.version}`);
      continue;
    }
    const known = byName.get(record.Package);
    if (!known || compareVersions(record.Version, known.Version) > 0) byName.set(record.Package, record);
  }
  const wanted = new Map();
  const visit = (name, neededBy) => {
    if (name === 'R' || basePackages.has(name) || wanted.has(name)) return;
    const record = byName.get(name);
    if (!record) {
      const who = neededBy ? `"${neededBy}" needs "${name}", which` : `"${name}"`;
      if (tooNew.has(name)) throw new Error(`${who} needs ${tooNew.get(name)} in this repository; webR has R ${rVersion}`);
      throw new Error(`${who} is not in the repository's PACKAGES index`);
    }
    wanted.set(name, record);
    for (const field of fields) {
      for (const dependency of parseDependencies(record[field], name)) visit(dependency.name, name);
    }
  };
  for (const name of requested) visit(name, null);
  return [...wanted.values()].sort((a, b) => (a.Package < b.Package ? -1 : a.Package > b.Package ? 1 : 0));
}

/** A PACKAGES file listing exactly `records`, each as the source wrote it. */
export function formatPackagesIndex(records) {
  return records.length === 0 ? '' : `${records.map((record) => record.text).join('\n\n')}\n`;
}
