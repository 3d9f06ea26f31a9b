/**
 * Blocks mode (RUNPAD_CODE_MODE=blocks), for models that cannot call tools but write fenced code
 * well: the answer's text is watched as it streams, and each fenced block tagged for a target (python, sql,
 * dot, … as the registry says) becomes, the moment its closing fence arrives, the same tool call a tool-calling model would
 * have made. From there on everything is shared with tools mode: the page runs it as a cell, the
 * message stores it, the step budget counts it, and the outputs go back to the model.
 *
 * Text is shown as it streams, except from a line that may open a runnable fence: that is held
 * back until it either becomes a cell or turns out to be plain markdown (answer ended unclosed).
 */
import 'server-only';
import type { UIMessageChunk } from 'ai';
import { TARGETS } from '@/lib/targets/registry';
import { blockTarget, completeCodeBlocks } from './code-blocks.server';
const OPENER = /^ {0,3}(`{3,}|~{3,})([^\n]*)$/;

/** Where held-back text starts: the first line from `from` that opens (or may yet open) a runnable fence. */
function holdFrom(text: string, from: number): number {
  let lineStart = from === 0 || text[from - 1] === '\n' ? from : text.indexOf('\n', from) + 1 || text.length;
  while (lineStart < text.length) {
    const newline = text.indexOf('\n', lineStart);
    const line = text.slice(lineStart, newline === -1 ? text.length : newline);
    if (newline === -1) return /^ {0,3}(`|~)/.test(line) || line.trim() === '' ? lineStart : text.length; // an incomplete line may become an opener
    const opener = OPENER.exec(line);
    if (opener && blockTarget(opener[2]) !== null) return lineStart;
    lineStart = newline + 1;
  }
  return text.length;
}

/** The tool call id of the `block`-th block of the `text`-th text part of one answer. */
export type BlockIdFor = (textIndex: number, blockIndex: number) => string;

export function blockCallId(nonce: string): BlockIdFor {
  return (textIndex, blockIndex) => `block_${nonce.replace(/-/g, '').slice(0, 16)}_${textIndex}_${blockIndex}`;
}

export function blocksToToolCalls(idFor: BlockIdFor): TransformStream<UIMessageChunk, UIMessageChunk> {
  /** Per streamed text part: its whole text, what is shown, how many blocks became calls, and its visible part id. */
  const parts = new Map<string, { index: number; text: string; shown: number; blocks: number; visibleId: string; open: boolean }>();
  let textParts = 0;

  const advance = (id: string, controller: TransformStreamDefaultController<UIMessageChunk>, final: boolean) => {
    const part = parts.get(id);
    if (!part) return;
    const blocks = completeCodeBlocks(part.text, { final });
    for (const block of blocks.slice(part.blocks)) {
      if (block.start > part.shown) emitText(part, part.text.slice(part.shown, block.start), controller);
      if (part.open) controller.enqueue({ type: 'text-end', id: part.visibleId });
      part.open = false;
      const toolCallId = idFor(part.index, part.blocks);
      const toolName = TARGETS[block.target].toolName;
      controller.enqueue({ type: 'tool-input-start', toolCallId, toolName } as UIMessageChunk);
      controller.enqueue({ type: 'tool-input-available', toolCallId, toolName, input: { code: block.code } });
      part.shown = block.end;
      part.blocks += 1;
      part.visibleId = `${id}-${part.blocks}`;
    }
    const until = final ? part.text.length : holdFrom(part.text, part.shown);
    if (until > part.shown) emitText(part, part.text.slice(part.shown, until), controller);
    part.shown = Math.max(part.shown, until);
  };

  const emitText = (part: { visibleId: string; open: boolean }, text: string, controller: TransformStreamDefaultController<UIMessageChunk>) => {
    if (!text) return;
    if (!part.open) {
      controller.enqueue({ type: 'text-start', id: part.visibleId });
      part.open = true;
    }
    controller.enqueue({ type: 'text-delta', id: part.visibleId, delta: text });
  };

  return new TransformStream<UIMessageChunk, UIMessageChunk>({
    transform(chunk, controller) {
      if (chunk.type === 'text-start') {
        parts.set(chunk.id, { index: textParts, text: '', shown: 0, blocks: 0, visibleId: chunk.id, open: false });
        textParts += 1;
        return;
      }
      if (chunk.type === 'text-delta') {
        const part = parts.get(chunk.id);
        if (!part) return controller.enqueue(chunk);
        part.text += chunk.delta;
        advance(chunk.id, controller, false);
        return;
      }
      if (chunk.type === 'text-end') {
        advance(chunk.id, controller, true);
        const part = parts.get(chunk.id);
        if (part?.open) controller.enqueue({ type: 'text-end', id: part.visibleId });
        parts.delete(chunk.id);
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

type Part = { type: string; text?: string; [key: string]: unknown };

/**
 * The same conversion on a finished answer, for what is stored: the text parts from `fromPart` on
 * (the ones this answer wrote) are split around their blocks into text and tool parts, with the
 * ids the stream gave the page.
 */
export function splitBlocksInParts<P extends Part>(parts: P[], fromPart: number, idFor: BlockIdFor): Part[] {
  const out: Part[] = parts.slice(0, fromPart);
  let textIndex = 0;
  for (const part of parts.slice(fromPart)) {
    if (part.type !== 'text' || typeof part.text !== 'string') {
      out.push(part);
      continue;
    }
    let shown = 0;
    for (const [blockIndex, block] of completeCodeBlocks(part.text, { final: true }).entries()) {
      const before = part.text.slice(shown, block.start);
      if (before.trim()) out.push({ ...part, text: before });
      out.push({ type: `tool-${TARGETS[block.target].toolName}`, toolCallId: idFor(textIndex, blockIndex), state: 'input-available', input: { code: block.code } });
      shown = block.end;
    }
    const rest = part.text.slice(shown);
    if (shown === 0) out.push(part);
    else if (rest.trim()) out.push({ ...part, text: rest });
    textIndex += 1;
  }
  return out;
}
