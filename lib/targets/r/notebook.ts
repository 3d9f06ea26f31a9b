/**
 * An R cell outside Runpad (server-safe): exported notebooks and scripts are Python (the registry's
 * notebook form), so an R cell is Python that hands the R source, as an exact literal, to `Rscript`
 * when R is installed, and prints it otherwise. Each such cell is a fresh R (no state between R
 * cells there); the stored outputs keep what Runpad's R did. No rpy2. (ARCHITECTURE.md, "R is webR".)
 */
import { pythonStringLiteral } from '@/lib/notebook/sql-setup';

export function rCellSource(code: string): string {
  return [
    `_runpad_r = ${pythonStringLiteral(code)}`,
    'import shutil, subprocess',
    'if shutil.which("Rscript"):  # a fresh R for this cell, reading ./data/ as Runpad\'s R read /data/',
    '    print(subprocess.run(["Rscript", "-e", _runpad_r], capture_output=True, text=True).stdout)',
    'else:',
    "    print(_runpad_r)  # the R source; Runpad's run is this cell's stored output",
  ].join('\n');
}
