'use client';

import { useMemo } from 'react';
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

type Block = { kind: 'stream'; name: 'stdout' | 'stderr'; text: string } | { kind: 'output'; output: Output; imageIndex: number };

/** Adjacent stream outputs of the same name render as one block, as in Jupyter. */
function mergeStreams(outputs: readonly Output[]): Block[] {
  const blocks: Block[] = [];
  let images = 0;
  for (const output of outputs) {
    const last = blocks.at(-1);
    if (output.output_type === 'stream' && last?.kind === 'stream' && last.name === output.name) {
      last.text += output.text;
    } else if (output.output_type === 'stream') {
      blocks.push({ kind: 'stream', name: output.name, text: output.text });
    } else {
      const isImage = 'data' in output && Boolean(output.data['image/png'] || output.data['image/jpeg'] || output.data['image/svg+xml']);
      if (isImage) images += 1;
      blocks.push({ kind: 'output', output, imageIndex: images });
    }
  }
  return blocks;
}

function BundleView({ data, imageIndex }: { data: MimeBundle; imageIndex: number }) {
  // A chart's bundle may also hold a PNG of it (made for the model): the chart is what is shown.
  const chart = vegaLiteSpecOf(data);
  if (chart) return <VegaOutput spec={chart} />;
  if (data['image/svg+xml']) return <SvgOutput svg={data['image/svg+xml']} index={imageIndex} />;
  if (data['image/png']) return <ImageOutput value={data['image/png']} mediaType="image/png" index={imageIndex} />;
  if (data['image/jpeg']) return <ImageOutput value={data['image/jpeg']} mediaType="image/jpeg" index={imageIndex} />;
  if (data['application/vnd.dataresource+json']) return <TableOutput table={data['application/vnd.dataresource+json']} />;
  if (data['text/markdown'] !== undefined) {
    return (
      <div data-output="markdown">
        <Markdown text={data['text/markdown']} />
      </div>
    );
  }
  return <StreamOutput name="stdout" text={data['text/plain'] ?? ''} />;
}

export function OutputList({ outputs }: { outputs: readonly Output[] }) {
  const blobUrl = useBlobUrl();
  const blocks = useMemo(() => mergeStreams(outputs), [outputs]);
  return (
    <div className="space-y-2">
      {blocks.map((block, i) => {
        if (block.kind === 'stream') return <StreamOutput key={i} name={block.name} text={block.text} />;
        const { output, imageIndex } = block;
        switch (output.output_type) {
          case 'display_data':
          case 'execute_result': {
            return (
              <div key={i} data-output-type={output.output_type}>
                <BundleView data={output.data} imageIndex={imageIndex} />
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
