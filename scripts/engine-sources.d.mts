// Types of scripts/engine-sources.mjs's exports, for the tests that import it.
export declare const repositoryRoot: string;
export declare const WORKER_SUFFIX: string;
export declare const PAGE_SCRIPT_SUFFIX: string;
export declare function engineFolders(root?: string): string[];
export declare function workerScripts(root?: string): Array<[string, string]>;
/** esbuild's options for a worker script, `@/` the repository at `root`. */
export declare function workerBuildOptions(root?: string): import('esbuild').BuildOptions;
export declare function pageScripts(root?: string): Array<[string, string]>;
