export declare function webrRVersion(dir?: string): string;
export declare function webrBasePackages(dir?: string): Set<string>;
