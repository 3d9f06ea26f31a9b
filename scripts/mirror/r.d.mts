export declare const WEBR_REPOSITORY: string;
export declare const DEFAULT_OUT: string;
export type MirroredFile = { path: string; sha256: string; bytes: number };
export declare function mirrorRPackages(options: {
  source?: string;
  out?: string;
  packages: string[];
  rVersion?: string;
  basePackages?: Set<string>;
  linkingTo?: boolean;
  acceptChanges?: boolean;
  log?: (line: string) => void;
}): Promise<{ out: string; rVersion: string; packages: string[]; files: MirroredFile[]; changed: string[] }>;
