'use client';

import { DATASET_REPERTOIRE } from '@/lib/ai/demo-analysis';

/**
 * Prompts that work; one that needs a downloaded package gives way when packages cannot be had.
 * With the offline demo, the dataset line names what the demo understands of a dropped file.
 */
const EXAMPLES = [
  { text: 'Compute the 30th Fibonacci number' },
  { text: 'Show me a table of the first 10 squares and cubes' },
  { text: 'Plot a sine wave', needsPackages: true, otherwise: 'Draw a flowchart of a pull request review' },
  { text: 'Show me how you fix an error in your code' },
];

/** First screen of a conversation: what Runpad does and a few prompts that work. */
export function EmptyState({ isDemo, packagesUnavailable, onExample }: { isDemo: boolean; packagesUnavailable: boolean; onExample: (text: string) => void }) {
  const examples = EXAMPLES.map((example) => (example.needsPackages && packagesUnavailable ? example.otherwise : example.text));
  return (
    <div className="mx-auto flex max-w-2xl flex-col items-center px-4 py-16 text-center">
      <h2 className="text-2xl font-semibold">What should we compute?</h2>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        The model writes Python, SQL or R; your browser runs it and shows the results — figures, tables, errors — and the model reads them back.
        {isDemo && ' No model is configured, so the offline demo model answers.'}
      </p>
      <ul className="mt-6 grid w-full gap-2 sm:grid-cols-2">
        {examples.map((example) => (
          <li key={example}>
            <button
              type="button"
              onClick={() => onExample(example)}
              className="w-full rounded-xl border border-zinc-200 px-4 py-3 text-left text-sm hover:bg-zinc-50 dark:border-zinc-800 dark:hover:bg-zinc-900"
            >
              {example}
            </button>
          </li>
        ))}
      </ul>
      <p className="mt-6 text-sm text-zinc-500 dark:text-zinc-400">
        {isDemo
          ? `Or drop a CSV (or TSV, JSON) anywhere here and ask the demo for ${DATASET_REPERTOIRE}: say “total revenue by month” or “top 5 categories by sales”.`
          : 'Or drop a CSV (or TSV, JSON, Excel, Parquet) anywhere here and ask a question about it.'}
      </p>
    </div>
  );
}
