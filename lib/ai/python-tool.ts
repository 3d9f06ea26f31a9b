/**
 * The `python` tool. It has no `execute`: the browser runs the code and answers with the run's
 * result (see DESIGN.md, "Model loop"). `toModelOutput` decides what the model sees of it.
 */
import { tool, type InferUITools, type ToolSet, type UIMessage } from 'ai';
import { pythonToolInputSchema, runResultSchema } from '@/lib/runtime/protocol';
import { runToModel } from './run-to-model';

const DESCRIPTION =
  "Run Python 3 code in the user's browser (Pyodide) and get back what it printed, displayed and raised. " +
  'State persists between calls. Print or display() what matters; the last expression of the code is shown too. ' +
  'Matplotlib figures are captured automatically. Files uploaded by the user are in /data; write files for the user to /output/. ' +
  'No network access and no pip.';

export type PythonToolOptions = { includeImages: boolean };

export function createPythonTool(options: PythonToolOptions = { includeImages: true }) {
  return tool({
    description: DESCRIPTION,
    inputSchema: pythonToolInputSchema,
    outputSchema: runResultSchema,
    toModelOutput: async ({ output }) => {
      const view = await runToModel(output, { includeImages: options.includeImages });
      return {
        type: 'content',
        value: [
          { type: 'text', text: view.text },
          ...view.images.map((image) => ({ type: 'file' as const, mediaType: image.mediaType, data: { type: 'data' as const, data: image.data } })),
        ],
      };
    },
  });
}

export function createTools(options?: PythonToolOptions) {
  return { python: createPythonTool(options) } satisfies ToolSet;
}

/** The tool set used to validate stored messages and to type the UI's tool parts. */
export const tools = createTools();
export type RunpadTools = InferUITools<typeof tools>;
export type RunpadUIMessage = UIMessage<unknown, never, RunpadTools>;
