// Types of scripts/engine-sources.mjs's exports, for the tests that import it.
export declare const repositoryRoot: string;
export declare const WORKER_SUFFIX: string;
export declare const PAGE_SCRIPT_SUFFIX: string;
export declare function engineFolders(root?: string): string[];
export declare function workerScripts(root?: string): Array<[string, string]>;
export declare function pageScripts(root?: string): Array<[string, string]>;
