export type LockPackage = { name: string; version: string; file_name: string; sha256: string; depends?: string[] };
export declare const DEFAULT_PACKAGES: string[];
export declare function resolvePackages(lock: { packages: Record<string, LockPackage> }, names: string[]): LockPackage[];
export declare function mirror(options: { source?: string; out?: string; lock?: string; packages?: string[]; log?: (line: string) => void }): Promise<{ packages: string[]; bytes: number; out: string }>;
