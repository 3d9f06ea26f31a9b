export declare const OFFICIAL_EXTENSION_REPOSITORY: string;
export declare const DEFAULT_EXTENSIONS: string[];
export declare const DEFAULT_OUT: string;
export declare function mirrorDuckdbExtensions(options: {
  source?: string;
  out?: string;
  extensions?: string[];
  engine?: { version: string; platform: string };
  acceptChanges?: boolean;
  log?: (line: string) => void;
}): Promise<{ out: string; version: string; platform: string; files: { path: string; sha256: string; bytes: number }[]; changed: string[] }>;
