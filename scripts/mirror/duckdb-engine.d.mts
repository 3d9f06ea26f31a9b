/** DuckDB-wasm's blocking Node bindings (the package exports no types for them): the part used here. */
export type Engine = {
  getVersion(): string;
  connect(): { query(sql: string): { toArray(): Record<string, unknown>[] }; close(): void };
};
export declare function openEngine(): Promise<Engine>;
export declare function engineFacts(db: Engine): { version: string; platform: string };
export declare function installedEngineFacts(): Promise<{ version: string; platform: string }>;
