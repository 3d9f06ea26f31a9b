export declare const pythonRoot: string;
export declare const pythonStart: { packageRoot: string; env: Record<string, string>; preload: string };
export declare function listPythonFiles(dir?: string): string[];
export declare function readPythonSources(): Record<string, string>;
export declare function snapshotFileName(pyodideVersion: string, sources?: Record<string, string>): string;
