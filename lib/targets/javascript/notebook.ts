/**
 * A JavaScript cell outside Runpad: exported notebooks and scripts are Python (the registry's
 * notebook form), so the cell is Python that hands the JavaScript, as an exact literal, to `node`
 * (its stdout and stderr shown; an error fails the cell). Without Node.js the cell fails saying so.
 * The stored outputs keep what Runpad's worker printed.
 */
import { pythonStringLiteral } from '@/lib/targets/shared/python-string-literal';

export const NODE_MISSING = 'Node.js is not installed (no `node` on the PATH), and this cell needs it: install Node.js from https://nodejs.org, then run the cell again.';

export function javascriptCellSource(code: string): string {
  return [
    `_runpad_js = ${pythonStringLiteral(code)}`,
    'import shutil, subprocess, sys',
    'if not shutil.which("node"):',
    `    raise RuntimeError(${pythonStringLiteral(NODE_MISSING)})`,
    '_runpad_js_run = subprocess.run(["node", "-e", _runpad_js], capture_output=True, text=True)',
    'print(_runpad_js_run.stdout, end="")',
    'print(_runpad_js_run.stderr, end="", file=sys.stderr)',
    'if _runpad_js_run.returncode != 0:',
    '    raise RuntimeError(f"JavaScript stopped with an error (exit status {_runpad_js_run.returncode}); its message is above.")',
  ].join('\n');
}
