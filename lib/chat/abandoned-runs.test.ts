import { describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { createConversation } from '@/lib/db/queries/conversations.server';
import { listMessages, upsertMessage } from '@/lib/db/queries/messages.server';
import { listRunProgress, saveRunProgress } from '@/lib/db/queries/run-progress.server';
import { ownerAndStranger } from '@/lib/testing/owner-and-stranger';
import { closeAbandonedRuns } from './abandoned-runs.server';
import { runProgressSchema } from './run-progress.server';

vi.mock('server-only', () => ({}));

const pending = (id: string) => ({ type: 'tool-python', toolCallId: id, state: 'input-available', input: { code: 'import time\nwhile True: print("tick"); time.sleep(1)' } });
const ticks = [{ output_type: 'stream' as const, name: 'stdout' as const, text: 'tick 1\ntick 2\n' }];

/** A run cut off with its page is stored with what it had printed and how long it had run. */
describe('closeAbandonedRuns', () => {
  const handle = ownerAndStranger();
  const { user, stranger } = handle;

  async function conversationWithPendingRun(toolCallId: string) {
    const { id } = await createConversation(handle.db, user, {});
    await upsertMessage(handle.db, user, id, { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'tick' }] });
    await upsertMessage(handle.db, user, id, { id: 'a1', role: 'assistant', parts: [pending(toolCallId)] });
    return id;
  }

  it('keeps the outputs and the duration the page saved while the run went on', async () => {
    const id = await conversationWithPendingRun('call-1');
    const startedAt = new Date(Date.now() - 7_000);
    expect(await saveRunProgress(handle.db, user, id, 'call-1', { startedAt, durationMs: 6_000, outputs: ticks })).toBe(true);
    // A later save without outputs moves the duration on and keeps them.
    expect(await saveRunProgress(handle.db, user, id, 'call-1', { startedAt, durationMs: 7_012.4 })).toBe(true);

    const closed = await closeAbandonedRuns(handle.db, user, id, await listMessages(handle.db, id));
    const output = (closed.at(-1)?.parts[0] as { output: { status: string; outputs: unknown; durationMs: number } }).output;
    expect(output.status).toBe('page-closed');
    expect(output.outputs).toEqual(ticks);
    expect(output.durationMs).toBe(7_012);
    expect((await listMessages(handle.db, id)).at(-1)?.parts[0]).toMatchObject({ state: 'output-available', output: { outputs: ticks } });
    expect((await listRunProgress(handle.db, id)).size).toBe(0);
  });

  it('closes a run whose page saved nothing as it did before: no outputs, no duration', async () => {
    const id = await conversationWithPendingRun('call-2');
    const closed = await closeAbandonedRuns(handle.db, user, id, await listMessages(handle.db, id));
    expect((closed.at(-1)?.parts[0] as { output: unknown }).output).toMatchObject({ status: 'page-closed', outputs: [], durationMs: 0 });
  });

  it('refuses progress for a conversation of someone else', async () => {
    const id = await conversationWithPendingRun('call-3');
    expect(await saveRunProgress(handle.db, stranger, id, 'call-3', { startedAt: new Date(), durationMs: 1, outputs: ticks })).toBe(false);
    expect((await listRunProgress(handle.db, id)).size).toBe(0);
  });

  it('removes a conversation’s stale rows as new progress is saved', async () => {
    const id = await conversationWithPendingRun('call-4');
    for (const call of ['old-a', 'old-b']) await saveRunProgress(handle.db, user, id, call, { startedAt: new Date(), durationMs: 1, outputs: [] });
    await handle.db.execute(sql`update run_progress set updated_at = now() - interval '1 hour' where tool_call_id = 'old-a'`);
    await saveRunProgress(handle.db, user, id, 'call-4', { startedAt: new Date(), durationMs: 1, outputs: [] });
    expect([...(await listRunProgress(handle.db, id)).keys()].sort()).toEqual(['call-4', 'old-b']);
  });

  it('validates what a page sends: outputs of the protocol, a sane duration', () => {
    expect(runProgressSchema.safeParse({ startedAt: Date.now(), durationMs: 5, outputs: ticks }).success).toBe(true);
    expect(runProgressSchema.safeParse({ startedAt: Date.now(), durationMs: -1 }).success).toBe(false);
    expect(runProgressSchema.safeParse({ startedAt: Date.now(), durationMs: 5, outputs: [{ output_type: 'html', text: '<b>' }] }).success).toBe(false);
  });
});
