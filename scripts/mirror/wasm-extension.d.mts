export declare function extensionProblem(bytes: Buffer): string | null;
