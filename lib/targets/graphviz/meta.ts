/** The Graphviz target (server-safe): DOT drawn by Graphviz in a worker of its own, no state. */
import { wasmOnlyWorkerCsp } from '@/lib/security/csp';
import { codeInputSchema, defineTarget } from '../target';
import { dotCellSource } from './notebook';

export const graphviz = defineTarget({
  id: 'graphviz',
  toolName: 'graphviz',
  inputSchema: codeInputSchema,
  name: 'Graphviz',
  label: 'Graphviz',
  fence: 'dot',
  blockTags: ['dot', 'graphviz', 'gv'],
  description:
    'Render a Graphviz DOT diagram (digraph or graph) in the user\'s browser; you get back a PNG of it, or the syntax error with its line. ' +
    'Use it for flowcharts, trees, dependency graphs and state machines. URL, href and image attributes are ignored.',
  prompt:
    "renders a DOT diagram (flowcharts, trees, dependency graphs); you see the picture. From Python (e.g. a graph built with networkx), `display({'text/vnd.graphviz': dot_source}, raw=True)` draws DOT the same way.",
  mimeTypes: ['image/svg+xml', 'image/png', 'text/plain'],
  stateful: false,
  engine: 'graphviz',
  replay: 'none',
  notebook: { cellSource: dotCellSource },
  // Graphviz's wasm is embedded in the bundle: its worker compiles it, and loads and fetches nothing.
  workers: [{ script: () => '/workers/graphviz.worker.mjs', csp: wasmOnlyWorkerCsp }],
  diagrams: true,
});
