/**
 * An answer is stored while it streams, not only when it ends: every ~2 s its text so far is
 * written (marked `streaming`), so a server killed mid-answer loses at most that much. When the
 * answer ends, the final message replaces the draft; when it fails, the draft is undone (the
 * message as it was before, or none). A draft still marked `streaming` with no live stream is an
 * answer cut off by a crash (see markCutOffAnswer).
 */
import 'server-only';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import type { Db } from '@/lib/db/client.server';
import type { Logger } from '@/lib/log/logger.server';
import { retryWhileDatabaseDown } from '@/lib/db/retry.server';
import { deleteMessage, upsertMessage, type StoredMessage } from '@/lib/db/queries/messages.server';
import { answerMetadataOf } from '../messages/answer-metadata';

const DRAFT_EVERY_MS = 2_000;

export class AnswerDraft {
  private writes: Promise<unknown> = Promise.resolve();
  private ended = false;
  private wroteDraft = false;

  constructor(
    private readonly db: Db,
    private readonly userId: string,
    private readonly conversationId: string,
    /** The stored assistant message this answer continues (after tool outputs), or null. */
    private readonly original: StoredMessage | null,
    /** The request's log (conversation and guest bound): a draft that fails to store says so. */
    private readonly log?: Logger,
  ) {}

  /**
   * Reads the answer's chunks as they pass and writes a draft at most every DRAFT_EVERY_MS.
   * `continues`: the original as validated for this request (lib/chat/ui-messages.server.ts), which the chunks extend.
   */
  watch(chunks: ReadableStream<UIMessageChunk>, continues?: UIMessage): void {
    void (async () => {
      let lastWrite = Date.now();
      const start = continues ? { ...continues, parts: [...continues.parts] } : undefined;
      // A stream error is the answer's failure, worded and logged by the chat route; the drafts just stop with it.
      for await (const snapshot of readUIMessageStream<UIMessage>({ stream: chunks, message: start, onError: () => undefined })) {
        if (this.ended) break;
        this.draftId = snapshot.id;
        if (Date.now() - lastWrite < DRAFT_EVERY_MS) continue;
        lastWrite = Date.now();
        this.write({ ...snapshot, metadata: { ...answerMetadataOf(snapshot.metadata), streaming: true } });
      }
    })().catch((error: unknown) => this.log?.warn({ err: error }, 'answer drafts stopped: the answer is stored only when it ends'));
  }

  private write(message: UIMessage): void {
    this.writes = this.writes.then(async () => {
      if (this.ended) return;
      this.wroteDraft = true;
      // A failed draft costs only what a crash right now would lose; the next draft or the end
      // writes the whole answer again. Logged, so a database in trouble is seen.
      await upsertMessage(this.db, this.userId, this.conversationId, { id: message.id, role: message.role, parts: message.parts, metadata: message.metadata ?? null }).catch((error: unknown) =>
        this.log?.warn({ err: error, messageId: message.id }, 'answer draft not stored'),
      );
    });
  }

  /** Ends drafting: stores the final answer, or (null) undoes the draft. */
  async finish(final: UIMessage | null): Promise<void> {
    this.ended = true;
    await this.writes; // each write logs its own failure and never rejects
    if (final) {
      const metadata = { ...answerMetadataOf(final.metadata) };
      delete metadata.streaming;
      delete metadata.cutOff;
      // The user has read this answer: a database restarting now must not lose it.
      await retryWhileDatabaseDown('final answer', () => upsertMessage(this.db, this.userId, this.conversationId, { id: final.id, role: final.role, parts: final.parts, metadata }), { log: this.log });
    } else if (this.wroteDraft) {
      if (this.original) await upsertMessage(this.db, this.userId, this.conversationId, this.original);
      else await this.undoNew();
    }
  }

  private async undoNew(): Promise<void> {
    // The draft was a new message: the id is the one readUIMessageStream took from the stream.
    if (this.draftId) await deleteMessage(this.db, this.userId, this.conversationId, this.draftId);
  }

  draftId: string | null = null;
}

/** A stored answer still marked `streaming` while no stream is live was cut off: say so. */
export async function markCutOffAnswer(db: Db, userId: string, conversationId: string, messages: StoredMessage[], live: boolean): Promise<StoredMessage[]> {
  const last = messages.at(-1);
  const metadata = answerMetadataOf(last?.metadata);
  if (!last || last.role !== 'assistant' || !metadata.streaming || live) return messages;
  const updated = { ...last, metadata: { ...metadata, streaming: false, cutOff: true } };
  await upsertMessage(db, userId, conversationId, updated);
  return [...messages.slice(0, -1), updated];
}
