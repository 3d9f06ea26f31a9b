export declare function rMinorVersion(rVersion: string): string;
export declare function rContribPath(rVersion: string): string;
export declare function rContribUrl(repoUrl: string, rVersion: string): string;
export declare function rPackagesIndexUrl(repoUrl: string, rVersion: string): string;
export declare function rPackageFile(name: string, version: string, indexPath?: string): string;
export declare function duckdbExtensionPath(duckdbVersion: string, platform: string, name: string): string;
export declare function duckdbExtensionUrl(repository: string, duckdbVersion: string, platform: string, name: string): string;
