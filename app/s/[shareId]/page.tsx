import { notFound, redirect } from 'next/navigation';
import { authorize } from '@/lib/access/authorize.server';
import { isAppError } from '@/lib/errors.server';
import { SharedConversation } from '@/components/chat/shared-conversation';
import { toUIMessages } from '@/lib/chat/ui-messages.server';
import { getDb } from '@/lib/db/client.server';
import { getShare, listShareFiles } from '@/lib/db/queries/shares.server';
import { getClientConfig } from '@/lib/client-config.server';
import { askingSubject, shareIdSchema } from '@/lib/http/session.server';
import { signInPath } from '@/lib/http/redirect-target';
import { targetConfigOf } from '@/lib/targets/engine';
import { withPageErrors } from '@/lib/http/page-errors.server';

export const dynamic = 'force-dynamic';

/**
 * A read-only snapshot of a shared conversation; needs no interpreter to display (one starts only
 * for a re-run). A link for signed-in people sends anyone else to sign in, and back here after;
 * a link that does not open for them (revoked, links off) is the same 404 as an id that names nothing.
 */
async function SharePage({ params }: { params: Promise<{ shareId: string }> }) {
  const { shareId } = await params;
  if (!shareIdSchema.safeParse(shareId).success) notFound();
  const refusal = await authorize(await getDb(), await askingSubject(), 'read', { share: shareId }).then(
    () => null,
    (error: unknown) => error,
  );
  if (isAppError(refusal) && refusal.code === 'share:sign_in_required') redirect(signInPath({ next: `/s/${shareId}` }));
  if (isAppError(refusal)) notFound();
  if (refusal) throw refusal;
  const share = await getShare(await getDb(), shareId);
  if (!share) notFound();
  // The files the share grants, for "Re-run in my browser" (the interpreter reads them from /data).
  const files = await listShareFiles(await getDb(), share.id);
  return (
    <SharedConversation
      source={{ share: share.id }}
      title={share.title}
      messages={await toUIMessages(share.messages)}
      sharedAt={share.updatedAt.toISOString()}
      files={files.map((file) => ({ name: file.name, sha256: file.sha256, salts: file.salts, location: file.location, size: file.size }))}
      config={targetConfigOf(getClientConfig())}
    />
  );
}

export default withPageErrors('share', SharePage);
