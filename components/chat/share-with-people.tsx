'use client';

import { GranteesEditor } from './grantees-editor';

/**
 * Share with people: the people and groups who may read this conversation at its own address
 * after signing in, an email or a group to add one, and Remove for each. The server decides who
 * may (POST/DELETE /api/conversations/<id>/readers) and words every refusal.
 */
export function ShareWithPeople({ conversationId }: { conversationId: string }) {
  const base = `/api/conversations/${conversationId}/readers`;
  return (
    <div className="mt-3 border-t border-zinc-200 pt-3 dark:border-zinc-700">
      <GranteesEditor listUrl={base} listKey="readers" base={base} label="Share with people (they read it here after signing in)" listLabel="Readers" withRole={false} />
    </div>
  );
}
