/**
 * A Graphviz cell outside Runpad: the cell assigns the DOT to `_runpad_dot` (a Python literal)
 * and, inside IPython with the `graphviz` package and Graphviz's `dot` program, displays the SVG
 * it draws; otherwise it prints the DOT. The notebook's stored outputs keep Runpad's drawing.
 */
import { pythonStringLiteral } from '@/lib/targets/shared/python-string-literal';

/**
 * The drawing is made before anything is displayed, so a missing `dot` program
 * (graphviz.ExecutableNotFound, a RuntimeError) falls back to the source instead of showing a
 * formatter traceback.
 */
export function dotCellSource(dot: string): string {
  return [
    `_runpad_dot = ${pythonStringLiteral(dot)}`,
    'try:  # drawn with the graphviz package and Graphviz\'s `dot` program, inside IPython/Jupyter',
    '    import graphviz',
    '    from IPython import get_ipython as _runpad_ipython',
    '    from IPython.display import SVG as _runpad_SVG, display as _runpad_display',
    '    _runpad_svg = graphviz.Source(_runpad_dot).pipe(format="svg").decode("utf-8") if _runpad_ipython() else None',
    'except (ImportError, RuntimeError):',
    '    _runpad_svg = None',
    'if _runpad_svg is not None:',
    '    _runpad_display(_runpad_SVG(_runpad_svg))',
    'else:',
    '    print(_runpad_dot)  # the DOT source; Runpad\'s drawing is this cell\'s stored output',
  ].join('\n');
}
