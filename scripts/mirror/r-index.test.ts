import { describe, expect, it } from 'vitest';
import { compareVersions, formatPackagesIndex, parsePackagesIndex, resolvePackages } from './r-index.mjs';

const MD5 = 'd41d8cd98f00b204e9800998ecf8427e';
const INDEX = [
  `Package: alpha\nVersion: 1.2.0\nDepends: R (>= 4.1.0), beta (>= 0.5),\n        stats\nImports: gamma, utils\nLinkingTo: headers\nMD5sum: ${MD5}\nNeedsCompilation: no`,
  `Package: beta\nVersion: 0.9-1\nImports: gamma\nMD5sum: ${MD5}`,
  `Package: gamma\nVersion: 2.0\nMD5sum: ${MD5}`,
  `Package: gamma\nVersion: 2.1\nMD5sum: ${MD5}`,
  `Package: headers\nVersion: 1.0\nMD5sum: ${MD5}`,
  `Package: future\nVersion: 1.0\nDepends: R (>= 9.0)\nMD5sum: ${MD5}`,
  `Package: wants.future\nVersion: 1.0\nImports: future\nMD5sum: ${MD5}`,
  `Package: orphan\nVersion: 1.0\nImports: nowhere\nMD5sum: ${MD5}`,
].join('\n\n');
const base = new Set(['base', 'stats', 'utils', 'methods']);
const options = { basePackages: base, rVersion: '4.6.0' };
const names = (records: { Package: string; Version: string }[]) => records.map((r) => `${r.Package} ${r.Version}`);

describe('a PACKAGES index', () => {
  const records = parsePackagesIndex(`${INDEX.replaceAll('\n', '\r\n')}\r\n`);

  it('is read record by record, continuation lines included', () => {
    expect(records.map((r) => r.Package)).toEqual(['alpha', 'beta', 'gamma', 'gamma', 'headers', 'future', 'wants.future', 'orphan']);
    expect(records[0].Depends).toBe('R (>= 4.1.0), beta (>= 0.5),\nstats');
    expect(records[0].text).toContain('NeedsCompilation: no');
  });

  it('resolves Depends and Imports recursively, without R, the base library or LinkingTo, the newest of duplicates', () => {
    expect(names(resolvePackages(records, ['alpha'], options))).toEqual(['alpha 1.2.0', 'beta 0.9-1', 'gamma 2.1']);
    expect(names(resolvePackages(records, ['alpha'], { ...options, fields: ['Depends', 'Imports', 'LinkingTo'] }))).toEqual(['alpha 1.2.0', 'beta 0.9-1', 'gamma 2.1', 'headers 1.0']);
    expect(resolvePackages(records, ['stats'], options)).toEqual([]);
  });

  it('says which package is missing and who needs it', () => {
    expect(() => resolvePackages(records, ['nope'], options)).toThrow('"nope" is not in the repository\'s PACKAGES index');
    expect(() => resolvePackages(records, ['orphan'], options)).toThrow('"orphan" needs "nowhere", which is not in the repository\'s PACKAGES index');
    expect(() => resolvePackages(records, ['wants.future'], options)).toThrow('"wants.future" needs "future", which needs R >= 9.0 in this repository; webR has R 4.6.0');
  });

  it('refuses records that are not package entries, naming them', () => {
    expect(() => parsePackagesIndex('Package: ok\nVersion: 1.0\n\nPackage: ../evil\nVersion: 1.0\n')).toThrow('record 2 (../evil): Package: not a valid R package name');
    expect(() => parsePackagesIndex('Package: ok\nVersion: latest\n')).toThrow('Version: not a valid R package version');
    expect(() => parsePackagesIndex('Package: ok\nVersion: 1.0\nMD5sum: xyz\n')).toThrow('MD5sum: not an MD5 checksum');
    expect(() => parsePackagesIndex('Package: ok\nVersion: 1.0\nPath: ../../etc\n')).toThrow('Path: not a relative path inside the repository');
    expect(() => parsePackagesIndex('<html>Not found</html>\n')).toThrow('record 1 has a line that is not "Field: value"');
    const bad = parsePackagesIndex('Package: ok\nVersion: 1.0\nImports: good, (bad stuff\n');
    expect(() => resolvePackages(bad, ['ok'], options)).toThrow('ok lists the dependency "(bad stuff"');
  });

  it('compares versions as R does', () => {
    expect(compareVersions('0.9-1', '0.9.1')).toBe(0);
    expect(compareVersions('1.10', '1.9')).toBe(1);
    expect(compareVersions('4.6', '4.6.0')).toBe(-1);
  });

  it('is written back with exactly the mirrored records, as the source wrote them', () => {
    const wanted = resolvePackages(records, ['beta'], options);
    const text = formatPackagesIndex(wanted);
    expect(text).toBe(`Package: beta\nVersion: 0.9-1\nImports: gamma\nMD5sum: ${MD5}\n\nPackage: gamma\nVersion: 2.1\nMD5sum: ${MD5}\n`);
    expect(names(parsePackagesIndex(text))).toEqual(['beta 0.9-1', 'gamma 2.1']);
  });
});
