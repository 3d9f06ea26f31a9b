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
import { readRunPart } from '@/lib/targets/run-part';

const DRAFT_EVERY_MS = 2_000;
/** The longest a code call is held from the page for its draft (a database that does not answer must not stall the answer). */
export const CALL_STORED_WAIT_MS = 5_000;

export class AnswerDraft {
  private writes: Promise<unknown> = Promise.resolve();
  private ended = false;
  private wroteDraft = false;
  /** Code calls whose input is complete and a draft holding them has been stored (or drafting ended). */
  private readonly storedCalls = new Set<string>();
  private readonly callWaiters = new Map<string, Array<() => void>>();

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
      const known = new Set(start?.parts.flatMap((part) => readRunPart(part)?.part.toolCallId ?? []) ?? []);
      for await (const snapshot of readUIMessageStream<UIMessage>({ stream: chunks, message: start, onError: () => undefined })) {
        if (this.ended) break;
        this.draftId = snapshot.id;
        // A code call the page will run is stored first: a reload while it runs finds it (as cut off),
        // where a draft every 2 s could leave a running cell in no stored answer.
        const calls = snapshot.parts.flatMap((part) => {
          const run = readRunPart(part);
          return run && run.part.state === 'input-available' && !known.has(run.part.toolCallId) ? [run.part.toolCallId] : [];
        });
        if (calls.length === 0 && Date.now() - lastWrite < DRAFT_EVERY_MS) continue;
        for (const id of calls) known.add(id);
        lastWrite = Date.now();
        this.write({ ...snapshot, metadata: { ...answerMetadataOf(snapshot.metadata), streaming: true } });
        if (calls.length > 0) void this.writes.then(() => this.markStored(calls));
      }
    })()
      .catch((error: unknown) => this.log?.warn({ err: error }, 'answer drafts stopped: the answer is stored only when it ends'))
      .finally(() => this.releaseWaiters());
  }

  /**
   * Resolves once a draft holding the code call `toolCallId` is stored, when drafting has stopped,
   * or after CALL_STORED_WAIT_MS: the chat route holds the call from the page until then.
   */
  callStored(toolCallId: string): Promise<void> {
    if (this.storedCalls.has(toolCallId) || this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, CALL_STORED_WAIT_MS);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.callWaiters.set(toolCallId, [...(this.callWaiters.get(toolCallId) ?? []), done]);
    });
  }

  private markStored(ids: string[]): void {
    for (const id of ids) {
      this.storedCalls.add(id);
      for (const done of this.callWaiters.get(id) ?? []) done();
      this.callWaiters.delete(id);
    }
  }

  private releaseWaiters(): void {
    for (const waiters of this.callWaiters.values()) for (const done of waiters) done();
    this.callWaiters.clear();
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
    this.releaseWaiters();
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
