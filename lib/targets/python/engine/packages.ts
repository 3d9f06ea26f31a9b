/**
 * Maps the imports of a piece of code to Pyodide packages from the lock file, and loads them
 * through the kernel's own network path. A package that cannot be fetched is reported by name
 * and URL, so the user and the model get a message they can act on.
 */
import type { PyodideAPI } from 'pyodide';
// zod/mini: the worker script is on the cold-start path, and full zod was 90% of it.
import * as z from 'zod/mini';
import type { LoadPackagesResult, PackageFailure } from '@/lib/targets/python/worker-api.client';

const lockPackageSchema = z.looseObject({
  name: z.string(),
  file_name: z.string(),
  imports: z.array(z.string()),
  depends: z.array(z.string()),
});
const lockFileSchema = z.looseObject({ info: z.looseObject({}), packages: z.record(z.string(), lockPackageSchema) });
type LockPackage = z.infer<typeof lockPackageSchema>;
export type LockFile = z.infer<typeof lockFileSchema>;

const LOCK_FETCH_TIMEOUT_MS = 10_000;

/**
 * The first of the lock files that can be read and is well-formed: the package source's own,
 * then the self-hosted core's copy, so an unreachable mirror still leaves a working interpreter.
 */
export async function readLockFile(urls: string[]): Promise<LockFile> {
  const problems: string[] = [];
  for (const url of new Set(urls)) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(LOCK_FETCH_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return lockFileSchema.parse(await response.json());
    } catch (error) {
      problems.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`No package lock file could be read (${problems.join('; ')}).`);
}

export class PackageLoader {
  private readonly byImport = new Map<string, LockPackage>();
  private readonly findImports: (code: string) => { toJs(): string[]; destroy(): void };

  constructor(
    private readonly pyodide: PyodideAPI,
    lock: LockFile,
    private readonly packageBaseUrl: string,
  ) {
    for (const pkg of Object.values(lock.packages)) {
      for (const name of pkg.imports) this.byImport.set(name, pkg);
    }
    this.findImports = pyodide.runPython('from pyodide.code import find_imports\nfind_imports');
  }

  /** Top-level module names the code imports, found by Pyodide's own parser. */
  importsOf(code: string): string[] {
    try {
      const found = this.findImports(code);
      const names: string[] = found.toJs();
      found.destroy();
      return names;
    } catch {
      // Code that does not parse yet (still streaming) has no imports we can trust.
      return [];
    }
  }

  packagesFor(code: string): LockPackage[] {
    const loaded = this.pyodide.loadedPackages as Record<string, unknown>;
    const wanted = new Map<string, LockPackage>();
    for (const name of this.importsOf(code)) {
      const pkg = this.byImport.get(name);
      if (pkg && !(pkg.name in loaded)) wanted.set(pkg.name, pkg);
    }
    return [...wanted.values()];
  }

  async load(packages: LockPackage[]): Promise<LoadPackagesResult> {
    if (packages.length === 0) return { loaded: [], failed: [] };
    const errors: string[] = [];
    await this.pyodide.loadPackage(
      packages.map((p) => p.name),
      { messageCallback: () => undefined, errorCallback: (message) => errors.push(message) },
    );
    const loadedNow = this.pyodide.loadedPackages as Record<string, unknown>;
    const failed: PackageFailure[] = packages
      .filter((p) => !(p.name in loadedNow))
      .map((p) => ({
        name: p.name,
        url: new URL(p.file_name, this.packageBaseUrl).href,
        message: errors.find((e) => e.includes(p.name)) ?? errors[0] ?? 'the package could not be fetched',
      }));
    return { loaded: packages.filter((p) => p.name in loadedNow).map((p) => p.name), failed };
  }
}
