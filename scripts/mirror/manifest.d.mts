export declare const MANIFEST_FILE: string;
export type Manifest = { kind: 'duckdb-extensions' | 'r-packages'; source: string; createdAt: string; files: { path: string; sha256: string; bytes: number }[] };
export declare function readManifest(out: string, kind: Manifest['kind']): Manifest | null;
export declare function writeManifest(dir: string, manifest: Manifest & Record<string, unknown>): void;
export declare function checkDrift(previous: Manifest | null, files: Manifest['files'], acceptChanges: boolean): string[];
