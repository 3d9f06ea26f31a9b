export declare const pyodideDir: string;
export declare const pyodideVersion: string;
export declare const CORE_FILES: string[];
export declare const officialPackageBaseUrl: string;
