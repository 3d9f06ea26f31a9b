/**
 * The admin page's list of shares: who shared what (a project, a conversation) with whom (a
 * person, a group), and when, newest first (lib/db/queries/projects.server.ts). Read-only.
 */
import 'server-only';
import { getDb } from '@/lib/db/client.server';
import { listShareAudit, type ShareRecord } from '@/lib/db/queries/projects.server';

const WORDS: Record<string, string> = { member_added: 'added to', member_invited: 'invited (no account yet) to', member_removed: 'removed from', reader_added: 'shared conversation with', reader_removed: 'stopped sharing conversation with' };
const ROLE: Record<string, string> = { use: ' (can use)', edit: ' (can edit)' };

function what(record: ShareRecord): string {
  if (record.projectId) return `project “${record.projectName ?? 'deleted'}”`;
  return `conversation “${record.conversationTitle ?? (record.conversationId ? 'untitled or deleted' : 'deleted')}”`;
}

export async function ShareAudit() {
  const records = await listShareAudit(await getDb());
  return (
    <section aria-labelledby="shares-heading" className="mt-10">
      <h2 id="shares-heading" className="text-lg font-semibold">
        Who shared what with whom
      </h2>
      {records.length === 0 ? (
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">Nothing shared yet.</p>
      ) : (
        <ul className="mt-2 space-y-1 text-sm" data-testid="share-audit">
          {records.map((record) => (
            <li key={record.id} className="break-words">
              <time dateTime={record.at.toISOString()}>{record.at.toISOString().slice(0, 16).replace('T', ' ')}</time> UTC · {record.actorEmail ?? 'someone'} · {WORDS[record.kind] ?? record.kind} {record.kind.startsWith('member') ? `${what(record)}: ` : ''}
              {record.subjectEmail ?? (record.subjectGroupName ? `group “${record.subjectGroupName}”` : 'a deleted account')}
              {ROLE[record.role ?? ''] ?? ''}
              {record.kind.startsWith('reader') ? ` · ${what(record)}` : ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
