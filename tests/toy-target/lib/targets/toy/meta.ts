/**
 * The toy target (server-safe): a target with an engine of its own, as small as one can be, kept
 * in the suite to show what adding one takes (docs/ARCHITECTURE.md, "Adding a target"): this
 * folder, and one line in each of the two lists (tests/toy-target.test.ts). Its engine reverses
 * the code it is given. It is in no list of the product.
 */
import { codeInputSchema, defineTarget } from '@/lib/targets/target';
import { pythonStringLiteral } from '@/lib/targets/shared/python-string-literal';

/** Where the worker build puts engine/toy.worker.ts (scripts/build-workers.mjs: by its name). */
export const TOY_WORKER_SCRIPT = '/workers/toy.worker.mjs';

export const toy = defineTarget({
  id: 'toy',
  toolName: 'toy',
  inputSchema: codeInputSchema,
  name: 'Toy',
  label: 'Toy · reversed',
  fence: 'text',
  blockTags: ['toy'],
  description: 'Reverse a text in a worker of its own.',
  prompt: 'reverses the text it is given.',
  mimeTypes: ['text/plain'],
  stateful: false,
  engine: 'toy',
  replay: 'none',
  notebook: { cellSource: (code) => `print(${pythonStringLiteral(code)}[::-1])` },
  workers: [{ script: () => TOY_WORKER_SCRIPT, csp: () => "default-src 'none'" }],
  diagrams: false,
});
