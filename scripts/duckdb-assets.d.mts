export declare const duckdbDistDir: string;
export declare const duckdbPackageVersion: string;
export declare const duckdbAssetPath: string;
export declare const DUCKDB_WASM_FILE: string;
export declare const DUCKDB_MODULE_FILE: string;
