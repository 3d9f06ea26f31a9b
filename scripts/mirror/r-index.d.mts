export type PackageRecord = { Package: string; Version: string; Depends?: string; Imports?: string; LinkingTo?: string; MD5sum?: string; Path?: string; text: string };
export declare const INSTALL_FIELDS: string[];
export declare function parsePackagesIndex(text: string): PackageRecord[];
export declare function compareVersions(a: string, b: string): -1 | 0 | 1;
export declare function parseDependencies(field: string | undefined, owner: string): { name: string; op?: string; version?: string }[];
export declare function resolvePackages(records: PackageRecord[], requested: string[], options: { basePackages: Set<string>; rVersion: string; fields?: string[] }): PackageRecord[];
export declare function formatPackagesIndex(records: PackageRecord[]): string;
