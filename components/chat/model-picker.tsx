'use client';

import type { ModelChoice } from '@/lib/model-catalog.server';

/** What a model cannot do, in words (it changes how Runpad talks to it: code blocks, figures described). */
export function capabilityNote(model: ModelChoice): string {
  const notes = [!model.tools && 'code blocks', !model.images && 'no images', model.contextTokens && `${Math.round(model.contextTokens / 1000)}k context`].filter(Boolean);
  return notes.join(', ');
}

/**
 * The model picker of the header: the operator's list (ids and labels only). The pick applies to
 * the next message; the server checks it and stores it with the conversation.
 */
export function ModelPicker({ models, value, onChange, disabled }: { models: ModelChoice[]; value: string; onChange: (id: string) => void; disabled: boolean }) {
  const current = models.find((m) => m.id === value);
  return (
    // On a phone the picker takes a row of its own under the title, so the model's whole name shows.
    <label className="flex min-w-0 items-center gap-1 text-xs max-sm:order-last max-sm:basis-full">
      <span className="sr-only">Model</span>
      <select
        data-testid="model-picker"
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        title={current ? `${current.label}${capabilityNote(current) ? ` (${capabilityNote(current)})` : ''}: the model that writes the next answer` : undefined}
        className="max-w-[16rem] truncate rounded-full max-sm:max-w-full border border-zinc-300 bg-zinc-50 px-2 py-0.5 text-xs disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900"
      >
        {models.map((model) => (
          <option key={model.id} value={model.id}>
            {model.label}
            {capabilityNote(model) ? ` (${capabilityNote(model)})` : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
