import { memo } from 'react';

/**
 * A cell's code as written, with line numbers. Not markdown: the code went through Streamdown's
 * markdown pipeline as a fenced block before, re-parsed on every streamed chunk and again when
 * the run started (2–3 ms of the page's thread each time, in front of the run's result). The
 * numbers are drawn by CSS, so copying the code copies only the code.
 */
export const CodeView = memo(function CodeView({ code, language }: { code: string; language: string }) {
  return (
    <pre data-language={language} className="max-h-[400px] overflow-auto bg-white px-3 py-2 font-mono text-[13px] leading-5 [counter-reset:line] dark:bg-zinc-950">
      <code>
        {/* A final newline ends the last line; it does not start an empty one. */}
        {code.replace(/\n$/, '').split('\n').map((line, index) => (
          <span
            key={index}
            className="block min-h-5 before:mr-4 before:inline-block before:w-6 before:text-right before:text-zinc-400 before:content-[counter(line)] before:select-none before:[counter-increment:line] dark:before:text-zinc-600"
          >
            {line}
          </span>
        ))}
      </code>
    </pre>
  );
});
