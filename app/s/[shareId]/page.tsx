import type { UIMessage } from 'ai';
import { notFound } from 'next/navigation';
import { SharedConversation } from '@/components/chat/shared-conversation';
import { getDb } from '@/lib/db/client';
import { getShare } from '@/lib/db/queries/shares';
import { shareIdSchema } from '@/lib/http/session';

export const dynamic = 'force-dynamic';

/** A read-only snapshot of a shared conversation; needs no interpreter to display. */
export default async function SharePage({ params }: { params: Promise<{ shareId: string }> }) {
  const { shareId } = await params;
  if (!shareIdSchema.safeParse(shareId).success) notFound();
  const share = await getShare(await getDb(), shareId);
  if (!share) notFound();
  return <SharedConversation shareId={share.id} title={share.title} messages={share.messages as UIMessage[]} sharedAt={share.updatedAt.toISOString()} />;
}
