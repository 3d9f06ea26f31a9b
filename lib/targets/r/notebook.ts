/**
 * An R cell outside Runpad (server-safe): exported notebooks and scripts are Python (the registry's
 * notebook form), so an R cell is Python that hands the R source, as an exact literal, to `Rscript`
 * in the notebook's folder (its data paths are `./data/…`, made relative by the exporter). Without
 * R the cell fails saying R is not installed; an R error fails it with R's message. Each such cell
 * is a fresh R (no state between R cells there); the stored outputs keep what Runpad's R did. No
 * rpy2. (ARCHITECTURE.md, "R is webR".)
 */
import { pythonStringLiteral } from '@/lib/targets/shared/python-string-literal';
import { missingProgramMessage, type NotebookProgram } from '@/lib/targets/target';

export const R_PROGRAM: NotebookProgram = {
  name: 'R',
  command: 'Rscript',
  install: 'install R from https://cran.r-project.org',
  readme: 'R cells run with R (`Rscript`), each in a fresh R: install R from https://cran.r-project.org.',
};

export function rCellSource(code: string): string {
  return [
    `_runpad_r = ${pythonStringLiteral(code)}`,
    'import shutil, subprocess, sys',
    `if not shutil.which(${pythonStringLiteral(R_PROGRAM.command)}):`,
    `    raise RuntimeError(${pythonStringLiteral(missingProgramMessage(R_PROGRAM, 'this cell'))})`,
    `_runpad_r_run = subprocess.run([${pythonStringLiteral(R_PROGRAM.command)}, "-e", _runpad_r], capture_output=True, text=True)  # a fresh R for this cell`,
    'print(_runpad_r_run.stdout, end="")',
    'print(_runpad_r_run.stderr, end="", file=sys.stderr)',
    'if _runpad_r_run.returncode != 0:',
    '    raise RuntimeError(f"R stopped with an error (exit status {_runpad_r_run.returncode}); its message is above.")',
  ].join('\n');
}
