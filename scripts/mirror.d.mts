export declare function parseCommandLine(argv: string[]): { kind: 'python' | 'duckdb' | 'r'; names: string[]; options: Record<string, string | true> };
