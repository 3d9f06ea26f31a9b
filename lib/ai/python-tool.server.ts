/**
 * The code tools, one per target (lib/targets/registry.ts). None has an `execute`: the browser
 * runs the code and answers with the run's result (ARCHITECTURE.md, "Model loop"). `toModelOutput`
 * decides what the model sees of it.
 */
import 'server-only';
import { tool, type InferUITools, type UIMessage } from 'ai';
import { runResultSchema } from '@/lib/runtime/protocol';
import { TARGET_LIST, type Target, type TargetId } from '@/lib/targets/registry';
import { runToModel } from './run-to-model.server';
import type { KnownWords } from './model-sees.server';
import type { ModelSees } from '@/lib/messages/model-input-schema';

/** known: the words the model knows in the conversation, kept under `schema` (lib/ai/model-sees.server.ts). */
export type ToolOptions = { includeImages: boolean; modelSees?: ModelSees; known?: KnownWords };

function codeTool(target: Target, options: ToolOptions) {
  return tool({
    description: target.description,
    inputSchema: target.inputSchema,
    outputSchema: runResultSchema,
    toModelOutput: async ({ output }) => {
      const view = await runToModel(output, { includeImages: options.includeImages, modelSees: options.modelSees, known: options.known });
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

/** One tool per target of the registry, named by its tool name. */
export function createTools(options: ToolOptions = { includeImages: true }) {
  return Object.fromEntries(TARGET_LIST.map((target) => [target.toolName, codeTool(target, options)])) as Record<TargetId, ReturnType<typeof codeTool>>;
}

/** The tool set used to validate stored messages and to type the UI's tool parts. */
export const tools = createTools();
export type RunpadTools = InferUITools<typeof tools>;
export type RunpadUIMessage = UIMessage<unknown, never, RunpadTools>;
