import type { ModelChoice } from './model-catalog.server';

/** What the server tells the browser about its configuration; nothing secret. */
export type ClientConfig = {
  modelLabel: string;
  isDemo: boolean;
  /** The models people may pick (ids, labels, capabilities; never a key or a URL). */
  models: ModelChoice[];
  defaultModelId: string;
  pyodideIndexPath: string;
  packageBaseUrl: string;
  packageLockUrl: string;
  webrBasePath: string;
  rPackageRepoUrl: string;
  /** DuckDB-wasm's files on this origin (versioned path) and where its extensions come from. */
  duckdbAssetPath: string;
  duckdbExtensionUrl: string;
  maxRunTimeoutMs: number;
  stepBudget: number;
  /** This install's version (package.json; Settings shows it). */
  version: string;
};
