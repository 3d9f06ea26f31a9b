/**
 * Maps the imports of a piece of code to Pyodide packages from the lock file, and loads them
 * through the kernel's own network path. A package that cannot be fetched is reported by name
 * and URL, so the user and the model get a message they can act on.
 */
import type { PyodideAPI } from 'pyodide';
import type { LoadPackagesResult, PackageFailure } from '@/lib/runtime/worker-api';

type LockPackage = { name: string; file_name: string; imports: string[]; depends: string[] };
type LockFile = { packages: Record<string, LockPackage> };

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
