/**
 * A language model for the chat handler's tests, in place of the provider (lib/ai/provider.server.ts):
 * it records each prompt it receives and answers with a python call, text, or the calls it is
 * given (`recording.next`, one per request; text when empty). A test file mocks the provider with
 * `vi.mock('@/lib/ai/provider.server', async () => (await import('@/lib/testing/recording-model')).recordingProvider)`.
 */
type Call = { toolName: string; code: string };
type Recording = { prompts: unknown[]; next: Array<'call' | 'text' | Call[]> };
/** One per process: a test file's vi.resetModules() makes new instances of this module, and they must share it. */
const held = globalThis as unknown as { runpadRecordingModel?: Recording };
export const recording: Recording = (held.runpadRecordingModel ??= { prompts: [], next: [] });
const model = recording;

export const recordingProvider = {
  getLanguageModel: async () => ({
    specificationVersion: 'v4',
    provider: 'recording',
    modelId: 'recording',
    supportedUrls: {},
    doGenerate: async () => {
      throw new Error('not used');
    },
    doStream: async (options: { prompt: unknown }) => {
      model.prompts.push(options.prompt);
      const kind = model.next.shift() ?? 'text';
      const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
      const calls = kind === 'call' ? [{ toolName: 'python', code: 'print(df)' }] : kind === 'text' ? [] : kind;
      const parts =
        calls.length > 0
          ? [{ type: 'stream-start', warnings: [] }, ...calls.map((call, i) => ({ type: 'tool-call', toolCallId: `call_${i + 1}`, toolName: call.toolName, input: JSON.stringify({ code: call.code }) })), { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage }]
          : [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Done.' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage }];
      return { stream: new ReadableStream({ start: (controller) => { for (const part of parts) controller.enqueue(part); controller.close(); } }) };
    },
  }),
};
