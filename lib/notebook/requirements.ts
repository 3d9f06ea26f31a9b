/**
 * What an exported notebook or script needs outside Runpad, and the first code cell that checks it.
 *
 * - Data paths: Runpad's engines read the conversation's files under `/data/` and write under
 *   `/output/`; outside Runpad the export reads `./data/` and writes `./output/` beside itself, so a
 *   quoted path that starts with one of those folders is made relative (`relativePaths`).
 * - Packages: every package a Python cell imports that this file knows (`PYPI_NAMES`; the standard
 *   library is never one) is checked by the first code cell (`find_spec`), DuckDB when SQL is used,
 *   R (`Rscript`) when R cells exist; another missing module fails with Python's own message. The cell names what is missing and
 *   how to install it; the cells that need it then fail saying so, the others run.
 * - `requirements.txt`: the PyPI names of those packages.
 */
import { pythonStringLiteral } from '@/lib/targets/shared/python-string-literal';
import { missingProgramMessage, type NotebookProgram } from '@/lib/targets/target';

/** A quoted `/data` or `/output` path (Python, R and SQL string literals, f-strings included). */
const ABSOLUTE_PATH = /(["'])\/(data|output)(?=[/"'])/g;

/** `"/data/x.csv"` → `"./data/x.csv"`, `'/output/'` → `'./output/'`; nothing else changes. */
export function relativePaths(code: string): string {
  return code.replace(ABSOLUTE_PATH, '$1./$2');
}

/** Whether code writes or reads Runpad's `/output/` folder (then the check cell creates `./output/`). */
export function usesOutputFolder(code: string): boolean {
  return /(["'])(\.)?\/output(?=[/"'])/.test(code);
}

/** Import names whose PyPI package is named otherwise, and the packages Runpad's Python has. */
const PYPI_NAMES: Record<string, string> = {
  altair: 'altair',
  bs4: 'beautifulsoup4',
  dateutil: 'python-dateutil',
  duckdb: 'duckdb',
  graphviz: 'graphviz',
  matplotlib: 'matplotlib',
  networkx: 'networkx',
  numpy: 'numpy',
  openpyxl: 'openpyxl',
  pandas: 'pandas',
  PIL: 'pillow',
  plotly: 'plotly',
  polars: 'polars',
  pyarrow: 'pyarrow',
  pytz: 'pytz',
  requests: 'requests',
  scipy: 'scipy',
  seaborn: 'seaborn',
  shapely: 'shapely',
  sklearn: 'scikit-learn',
  statsmodels: 'statsmodels',
  sympy: 'sympy',
  xlrd: 'xlrd',
  yaml: 'PyYAML',
};

/** Modules only Runpad's browser Python has: no package to install. */
const RUNPAD_ONLY = new Set(['js', 'pyodide', 'pyodide_js', 'micropip', 'runpad']);

/** The top-level modules Python code imports (`import a.b, c as d`, `from e.f import g`), in order. */
export function importedModules(code: string): string[] {
  const found: string[] = [];
  for (const match of code.matchAll(/^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([^\n#;]+))/gm)) {
    const names = match[1] ? [match[1]] : match[2].split(',').map((part) => part.trim().split(/\s+/)[0]);
    for (const name of names) {
      const top = name.split('.')[0];
      if (/^[A-Za-z_]\w*$/.test(top) && !RUNPAD_ONLY.has(top) && !found.includes(top)) found.push(top);
    }
  }
  return found;
}

/** A module this file knows as a package to install (the standard library is not one). */
export function isKnownPackage(module: string): boolean {
  return Object.hasOwn(PYPI_NAMES, module);
}

export type Requirement = { module: string; why: string };

export type Needs = {
  requirements: Requirement[];
  /** Programs the cells run (R's `Rscript`), each with the cells that need it ("the R cells"). */
  programs: Array<{ program: NotebookProgram; cells: string }>;
  /** Some code uses `./output/`: the check cell creates it. */
  output: boolean;
};

/** The `requirements.txt` of an export: one PyPI name a line, those this file knows. */
export function requirementsTxt(needs: Needs): string {
  const known = [...new Set(needs.requirements.map((req) => pipName(req.module)))];
  return known.length > 0 ? `${known.join('\n')}\n` : '';
}

export function pipName(module: string): string {
  return PYPI_NAMES[module] ?? module;
}

/** The first code cell: names what is missing and how to install it; creates `./output/` when used. */
export function checkCellSource(needs: Needs): string {
  const lines = [
    '# What this notebook needs outside Runpad, checked first: a missing package is named here, and',
    '# the cells that need it fail saying so; the others run. (pip install -r requirements.txt)',
    'import importlib.util as _runpad_util, shutil as _runpad_shutil, sys as _runpad_sys',
    '_runpad_needs = [',
    ...needs.requirements.map((req) => `    (${pythonStringLiteral(req.module)}, ${pythonStringLiteral(pipName(req.module))}, ${pythonStringLiteral(req.why)}),`),
    ']',
    '',
    'def _runpad_installed(module):',
    '    if module in _runpad_sys.modules:',
    '        return True',
    '    try:',
    '        return _runpad_util.find_spec(module) is not None',
    '    except (ImportError, ValueError):',
    '        return False',
    '',
    '_runpad_missing = [need for need in _runpad_needs if not _runpad_installed(need[0])]',
    'for _runpad_module, _runpad_pip, _runpad_why in _runpad_missing:',
    '    print(f"Not installed: {_runpad_module} (needed by {_runpad_why}). Install it with: pip install {_runpad_pip}")',
    'if _runpad_missing:',
    '    print("Or install everything at once: pip install -r requirements.txt")',
  ];
  for (const { program, cells } of needs.programs) {
    lines.push(
      `if not _runpad_shutil.which(${pythonStringLiteral(program.command)}):`,
      `    print(${pythonStringLiteral(missingProgramMessage(program, cells))})`,
      `    _runpad_missing.append((${pythonStringLiteral(program.name)}, None, ${pythonStringLiteral(cells)}))`,
    );
  }
  lines.push('if _runpad_missing:', '    print("The cells that need these fail saying so; the others run.")', 'else:', '    print("Everything this notebook needs is installed.")');
  if (needs.output) lines.push('import os as _runpad_os', '_runpad_os.makedirs("output", exist_ok=True)  # what Runpad wrote to /output/ goes to ./output/');
  return lines.join('\n');
}
