/** What the server tells the browser about its configuration; nothing secret. */
export type ClientConfig = {
  modelLabel: string;
  isDemo: boolean;
  pyodideIndexPath: string;
  packageBaseUrl: string;
  packageLockUrl: string;
  webrBasePath: string;
  rPackageRepoUrl: string;
  maxRunTimeoutMs: number;
  stepBudget: number;
};
