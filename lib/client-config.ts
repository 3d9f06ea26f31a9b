/** What the server tells the browser about its configuration; nothing secret. */
export type ClientConfig = {
  modelLabel: string;
  isDemo: boolean;
  pyodideIndexPath: string;
  packageBaseUrl: string;
  packageLockUrl: string;
  /** DuckDB-wasm's files on this origin (versioned path) and where its extensions come from. */
  duckdbAssetPath: string;
  duckdbExtensionUrl: string;
  maxRunTimeoutMs: number;
  stepBudget: number;
};
