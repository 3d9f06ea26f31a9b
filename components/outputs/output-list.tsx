'use client';

import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { Output } from '@/lib/runtime/protocol';
import { Markdown } from '@/components/chat/markdown';
import { ErrorOutput } from './error-output';
import { FileOutput } from './file-output';
import { ImageOutput } from './image-output';
import { StreamOutput } from './stream-output';
import { TableOutput } from './table-output';
import { SvgOutput } from './svg-output';
import { VegaOutput } from './vega-output';
import { vegaLiteSpecOf } from '@/lib/charts/vegalite';
import { useBlobUrl } from './blob-url';
import type { MimeBundle } from '@/lib/runtime/protocol';
import { useRevealFor, type RevealRequest } from './trace-reveal';
import type { TextHighlight } from './highlight';

/** A stream block remembers where each of its outputs starts in its text (for a traced value). */
type Block =
  | { kind: 'stream'; name: 'stdout' | 'stderr'; text: string; parts: Array<{ index: number; offset: number }> }
  | { kind: 'output'; output: Output; imageIndex: number; index: number };

/** Adjacent stream outputs of the same name render as one block, as in Jupyter. */
function mergeStreams(outputs: readonly Output[]): Block[] {
  const blocks: Block[] = [];
  let images = 0;
  outputs.forEach((output, index) => {
    const last = blocks.at(-1);
    if (output.output_type === 'stream' && last?.kind === 'stream' && last.name === output.name) {
      last.parts.push({ index, offset: last.text.length });
      last.text += output.text;
    } else if (output.output_type === 'stream') {
      blocks.push({ kind: 'stream', name: output.name, text: output.text, parts: [{ index, offset: 0 }] });
    } else {
      const isImage = 'data' in output && Boolean(output.data['image/png'] || output.data['image/jpeg'] || output.data['image/svg+xml']);
      if (isImage) images += 1;
      blocks.push({ kind: 'output', output, imageIndex: images, index });
    }
  });
  return blocks;
}

function textHighlight(reveal: RevealRequest | null, offset = 0): TextHighlight | undefined {
  return reveal?.location.kind === 'text' ? { start: offset + reveal.location.start, end: offset + reveal.location.end, seq: reveal.seq } : undefined;
}

/** A traced value that is not text or a table cell (a chart's data, a table's size): the whole output is marked. */
function BlockHighlight({ reveal, children }: { reveal: RevealRequest | null; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const whole = reveal !== null && (reveal.location.kind === 'chart' || reveal.location.kind === 'shape');
  const seq = whole ? reveal.seq : undefined;
  useEffect(() => {
    if (seq === undefined) return;
    ref.current?.scrollIntoView({ block: 'center' });
    ref.current?.focus({ preventScroll: true });
  }, [seq]);
  if (!whole) return <>{children}</>;
  return (
    <div ref={ref} tabIndex={-1} data-trace-highlight="" className="rounded outline outline-2 outline-offset-2 outline-amber-400">
      {children}
    </div>
  );
}

function BundleView({ data, imageIndex, reveal }: { data: MimeBundle; imageIndex: number; reveal: RevealRequest | null }) {
  // A chart's bundle may also hold a PNG of it (made for the model): the chart is what is shown.
  const chart = vegaLiteSpecOf(data);
  if (chart) {
    return (
      <BlockHighlight reveal={reveal}>
        <VegaOutput spec={chart} />
      </BlockHighlight>
    );
  }
  if (data['image/svg+xml']) return <SvgOutput svg={data['image/svg+xml']} index={imageIndex} />;
  if (data['image/png']) return <ImageOutput value={data['image/png']} mediaType="image/png" index={imageIndex} />;
  if (data['image/jpeg']) return <ImageOutput value={data['image/jpeg']} mediaType="image/jpeg" index={imageIndex} />;
  if (data['application/vnd.dataresource+json']) {
    const cell = reveal?.location.kind === 'table' ? { row: reveal.location.row, column: reveal.location.column, seq: reveal.seq } : undefined;
    return (
      <BlockHighlight reveal={reveal}>
        <TableOutput table={data['application/vnd.dataresource+json']} highlight={cell} />
      </BlockHighlight>
    );
  }
  if (data['text/markdown'] !== undefined) {
    return (
      <MarkdownHighlight reveal={reveal}>
        <Markdown text={data['text/markdown']} />
      </MarkdownHighlight>
    );
  }
  return <StreamOutput name="stdout" text={data['text/plain'] ?? ''} highlight={textHighlight(reveal)} />;
}

/** Rendered markdown has no source offsets: the traced text is found in what is shown, or the block is marked. */
function MarkdownHighlight({ reveal, children }: { reveal: RevealRequest | null; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const seq = reveal?.seq;
  useEffect(() => {
    if (seq === undefined) return;
    ref.current?.scrollIntoView({ block: 'center' });
    ref.current?.focus({ preventScroll: true });
  }, [seq]);
  return (
    <div ref={ref} data-output="markdown" data-trace-highlight={seq === undefined ? undefined : ''} tabIndex={seq === undefined ? undefined : -1} className={seq === undefined ? undefined : 'rounded outline outline-2 outline-offset-2 outline-amber-400'}>
      {children}
    </div>
  );
}

/** `toolCallId`: the run these outputs belong to, so a traced figure of an answer can point into them. */
export function OutputList({ outputs, toolCallId }: { outputs: readonly Output[]; toolCallId?: string }) {
  const blobUrl = useBlobUrl();
  const blocks = useMemo(() => mergeStreams(outputs), [outputs]);
  const reveal = useRevealFor(toolCallId);
  return (
    <div className="space-y-2">
      {blocks.map((block, i) => {
        if (block.kind === 'stream') {
          const part = reveal ? block.parts.find((p) => p.index === reveal.outputIndex) : undefined;
          return <StreamOutput key={i} name={block.name} text={block.text} highlight={part ? textHighlight(reveal, part.offset) : undefined} />;
        }
        const { output, imageIndex } = block;
        const ownReveal = reveal?.outputIndex === block.index ? reveal : null;
        switch (output.output_type) {
          case 'display_data':
          case 'execute_result': {
            return (
              <div key={i} data-output-type={output.output_type}>
                <BundleView data={output.data} imageIndex={imageIndex} reveal={ownReveal} />
              </div>
            );
          }
          case 'error':
            return <ErrorOutput key={i} error={output} />;
          case 'file':
            return <FileOutput key={i} file={output} href={output.ref ? blobUrl(output.ref.slice('blob:'.length)) : undefined} />;
          case 'stream':
            return null;
        }
      })}
    </div>
  );
}
