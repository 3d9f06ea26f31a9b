export type UnitPart = { files: string[]; seconds: number };
export function unitTestFiles(dir?: string): string[];
export function readUnitWeights(): Record<string, number>;
export function unitParts(files: string[], weights: Record<string, number>, options?: { lanes?: number; smallest?: number; perFile?: number }): UnitPart[];
