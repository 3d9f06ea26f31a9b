/**
 * The provider is called only after `before` has run, and never in the same turn of the event
 * loop as the answer's response: the record of what the model will see is written before the
 * model is asked (no request reaches a provider without its record), and the answer's first byte
 * is written to the browser before either (ARCHITECTURE.md, "The loop").
 */
import 'server-only';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { wrapLanguageModel, type LanguageModel } from 'ai';

/** A model object (not a model id string): what the providers' packages and the demo return. */
export type ProviderModel = Exclude<LanguageModel, string>;

/** What the model would see could not be recorded, so nothing was sent to it. */
export class ModelInputNotRecordedError extends Error {
  constructor(cause: unknown) {
    super('What the model would see could not be recorded; nothing was sent to the model.', { cause });
    this.name = 'ModelInputNotRecordedError';
  }
}

/** `model`, whose every call waits for `before` (run once, on the first call, in a later turn of the event loop). */
export function callProviderAfter(model: ProviderModel, before: () => Promise<void>): ProviderModel {
  let ready: Promise<void> | null = null;
  const once = () =>
    (ready ??= nextTurn()
      .then(before)
      .catch((cause: unknown) => {
        throw new ModelInputNotRecordedError(cause);
      }));
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v4',
      wrapStream: async ({ doStream }) => {
        await once();
        return doStream();
      },
      wrapGenerate: async ({ doGenerate }) => {
        await once();
        return doGenerate();
      },
    },
  });
}
