import type { AppConfig } from './config.server';
import type { ModelChoice } from './model-catalog.server';

/** The server configuration's fields the page gets as they are (each declared once, in AppConfig); nothing secret. */
export const CLIENT_CONFIG_FIELDS = [
  'pyodideIndexPath',
  'packageBaseUrl',
  'packageLockUrl',
  'webrBasePath',
  'rPackageRepoUrl',
  /** DuckDB-wasm's files on this origin (versioned path) and where its extensions come from. */
  'duckdbAssetPath',
  'duckdbExtensionUrl',
  'maxRunTimeoutMs',
  'stepBudget',
  /** The operator's RUNPAD_MODEL_SEES: Settings shows `schema` as set, and cannot turn it off. */
  'modelSees',
  /** The operator's RUNPAD_PUBLIC_SHARES: Share offers only the links that exist. */
  'publicShares',
  /** RUNPAD_UPLOAD_FILE_BYTES: the page refuses a larger upload early and keeps a larger file on the device. */
  'uploadFileBytes',
] as const satisfies ReadonlyArray<keyof AppConfig>;

/** What the server tells the browser about its configuration (lib/client-config.server.ts makes it). */
export type ClientConfig = Pick<AppConfig, (typeof CLIENT_CONFIG_FIELDS)[number]> & {
  /** The default model's label, and whether it is the offline demo. */
  modelLabel: string;
  isDemo: boolean;
  /** The models people may pick (ids, labels, capabilities; never a key or a URL). */
  models: ModelChoice[];
  defaultModelId: string;
  /** This install's version (package.json; Settings shows it). */
  version: string;
};
