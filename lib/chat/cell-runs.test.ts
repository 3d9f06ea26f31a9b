import { describe, expect, it, vi } from 'vitest';
import { createConversation } from '@/lib/db/queries/conversations.server';
import { listMessages, upsertMessage } from '@/lib/db/queries/messages.server';
import { listRunProgress, saveRunProgress } from '@/lib/db/queries/run-progress.server';
import { ownerAndStranger } from '@/lib/testing/owner-and-stranger';
import { failedRun } from '@/lib/runtime/failed-run';
import { TARGET_LIST } from '@/lib/targets/registry';
import { readRunPart } from '@/lib/targets/run-part';
import { closeAbandonedRuns } from './abandoned-runs.server';
import { cellRunSchema, saveCellRun } from './cell-runs.server';

vi.mock('server-only', () => ({}));

/** Code of every kind a model writes: quotes, non-Latin letters, newlines, a loop that never ends. */
const CODE = 'name = "Zoë’s «данные» \'x\'"\nwhile True:\n    print(name, flush=True)\n';
const printed = [{ output_type: 'stream' as const, name: 'stdout' as const, text: 'Zoë’s «данные» line 1\nline 2\nlast line before the stop\n' }];
const stopped = (durationMs: number) => failedRun({ kind: 'interrupted', state: 'kept' }, durationMs, printed);

/**
 * A cell the person stopped (Esc or Stop) while the model's turn waited for it: the page stores
 * the stop's outcome, so a reload shows "interrupted … Variables were kept" with every line it
 * printed, not "cut off by a reload" with the last save's lines.
 */
describe('saveCellRun: the outcome of a run the person stopped', () => {
  const handle = ownerAndStranger();
  const { user, stranger } = handle;

  async function conversationWaitingFor(type: string, toolCallId: string) {
    const { id } = await createConversation(handle.db, user, {});
    await upsertMessage(handle.db, user, id, { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'loop' }] });
    await upsertMessage(handle.db, user, id, { id: 'a1', role: 'assistant', parts: [{ type: 'step-start' }, { type, toolCallId, state: 'input-available', input: { code: CODE } }] });
    return id;
  }

  it.each(TARGET_LIST.map((target) => target.toolName))('stores a stopped %s run as interrupted, and a reload keeps it so', async (tool) => {
    const toolCallId = `call "${tool}" ü\n1`;
    const id = await conversationWaitingFor(`tool-${tool}`, toolCallId);
    // The page had saved its progress while the run went on: an earlier, shorter state.
    await saveRunProgress(handle.db, user, id, toolCallId, { startedAt: new Date(Date.now() - 20_000), durationMs: 11_100, outputs: printed.map((o) => ({ ...o, text: 'line 1\n' })) });

    expect(await saveCellRun(handle.db, user, id, toolCallId, cellRunSchema.parse({ code: CODE, result: stopped(12_900) }))).toBe(true);

    // What a reload reads: the stored run, not a run cut off by the reload.
    const reloaded = await closeAbandonedRuns(handle.db, user, id, await listMessages(handle.db, id));
    const read = readRunPart(reloaded.at(-1)?.parts[1]);
    expect(read?.recorded).toMatchObject({ status: 'interrupted', durationMs: 12_900, outputs: printed, failures: [{ kind: 'interrupted', state: 'kept' }] });
    expect(read?.code).toBe(CODE);
    expect((await listRunProgress(handle.db, id)).has(toolCallId)).toBe(false);
  });

  it('takes the page’s end of a run that a reload closed first (the reload’s read came before the page’s write)', async () => {
    const id = await conversationWaitingFor('tool-python', 'call-raced');
    await closeAbandonedRuns(handle.db, user, id, await listMessages(handle.db, id));
    expect(readRunPart((await listMessages(handle.db, id)).at(-1)?.parts[1])?.recorded?.status).toBe('page-closed');
    expect(await saveCellRun(handle.db, user, id, 'call-raced', cellRunSchema.parse({ code: CODE, result: stopped(12_900) }))).toBe(true);
    expect(readRunPart((await listMessages(handle.db, id)).at(-1)?.parts[1])?.recorded).toMatchObject({ status: 'interrupted', outputs: printed });
  });

  it('refuses a stranger, a call that is not there, and a run whose code is not the call’s', async () => {
    const id = await conversationWaitingFor('tool-python', 'call-a');
    const run = cellRunSchema.parse({ code: CODE, result: stopped(5) });
    expect(await saveCellRun(handle.db, stranger, id, 'call-a', run)).toBe(false);
    expect(await saveCellRun(handle.db, user, id, 'call-elsewhere', run)).toBe(false);
    expect(await saveCellRun(handle.db, user, id, 'call-a', { ...run, code: `${CODE}# other` })).toBe(false);
    expect(readRunPart((await listMessages(handle.db, id)).at(-1)?.parts[1])?.part.state).toBe('input-available');
  });

  it('keeps the two kinds of writes apart: a user run needs a finished run, a waiting call takes only the page’s own run', async () => {
    const id = await conversationWaitingFor('tool-python', 'call-b');
    // A re-run claimed for a call that never finished is refused.
    expect(await saveCellRun(handle.db, user, id, 'call-b', cellRunSchema.parse({ code: CODE, result: { ...stopped(5), userRun: 'rerun' } }))).toBe(false);
    expect(await saveCellRun(handle.db, user, id, 'call-b', cellRunSchema.parse({ code: CODE, result: stopped(7) }))).toBe(true);
    // Once stored, a second outcome for the same call is not the page's run: refused, the first kept.
    expect(await saveCellRun(handle.db, user, id, 'call-b', cellRunSchema.parse({ code: CODE, result: { status: 'ok', outputs: [], durationMs: 1 } }))).toBe(false);
    expect(readRunPart((await listMessages(handle.db, id)).at(-1)?.parts[1])?.recorded?.durationMs).toBe(7);
    // The user's own re-run of it is stored as before.
    expect(await saveCellRun(handle.db, user, id, 'call-b', cellRunSchema.parse({ code: 'print(1)', result: { status: 'ok', outputs: [], durationMs: 1, userRun: 'edited' } }))).toBe(true);
    expect(readRunPart((await listMessages(handle.db, id)).at(-1)?.parts[1])).toMatchObject({ code: 'print(1)', recorded: { userRun: 'edited' } });
  });
});
