'use client';

import type { Output } from '@/lib/runtime/protocol';
import { Markdown } from '@/components/chat/markdown';
import { ErrorOutput } from './error-output';
import { FileOutput } from './file-output';
import { ImageOutput } from './image-output';
import { StreamOutput } from './stream-output';
import { TableOutput } from './table-output';
import type { MimeBundle } from '@/lib/runtime/protocol';

type Block = { kind: 'stream'; name: 'stdout' | 'stderr'; text: string } | { kind: 'output'; output: Output };

/** Adjacent stream outputs of the same name render as one block, as in Jupyter. */
function mergeStreams(outputs: Output[]): Block[] {
  const blocks: Block[] = [];
  for (const output of outputs) {
    const last = blocks.at(-1);
    if (output.output_type === 'stream' && last?.kind === 'stream' && last.name === output.name) {
      last.text += output.text;
    } else if (output.output_type === 'stream') {
      blocks.push({ kind: 'stream', name: output.name, text: output.text });
    } else {
      blocks.push({ kind: 'output', output });
    }
  }
  return blocks;
}

function BundleView({ data, imageIndex }: { data: MimeBundle; imageIndex: number }) {
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

export function OutputList({ outputs, fileHref }: { outputs: Output[]; fileHref?: (ref: string) => string }) {
  let imageIndex = 0;
  return (
    <div className="space-y-2">
      {mergeStreams(outputs).map((block, i) => {
        if (block.kind === 'stream') return <StreamOutput key={i} name={block.name} text={block.text} />;
        const { output } = block;
        switch (output.output_type) {
          case 'display_data':
          case 'execute_result': {
            if (output.data['image/png'] || output.data['image/jpeg']) imageIndex += 1;
            return (
              <div key={i} data-output-type={output.output_type}>
                <BundleView data={output.data} imageIndex={imageIndex} />
              </div>
            );
          }
          case 'error':
            return <ErrorOutput key={i} error={output} />;
          case 'file':
            return <FileOutput key={i} file={output} href={output.ref && fileHref ? fileHref(output.ref) : undefined} />;
          case 'stream':
            return null;
        }
      })}
    </div>
  );
}
