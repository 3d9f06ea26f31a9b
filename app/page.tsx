import { Chat } from '@/components/chat/chat';
import { KernelBoot } from '@/components/chat/kernel-boot.server';
import { getClientConfig } from '@/lib/client-config.server';
import { resolveIdentity } from '@/lib/auth/current-user.server';
import { initialModelId } from '@/lib/chat/choose-model.server';
import { getDb } from '@/lib/db/client.server';
import { withPageErrors } from '@/lib/http/page-errors.server';

export const dynamic = 'force-dynamic';

/** A new conversation; it is stored when its first message is sent. It starts with the model used last. */
async function NewConversationPage() {
  const config = getClientConfig();
  const who = await resolveIdentity();
  const modelId = await initialModelId(await getDb(), who.ok ? who.identity.userId : null, null);
  return (
    <>
      <KernelBoot location={config} />
      <Chat key="new" conversationId={crypto.randomUUID()} initialMessages={[]} initialFiles={[]} title={null} config={config} signedIn={who.ok && who.identity.kind === 'account'} initialModelId={modelId} />
    </>
  );
}

export default withPageErrors('new-conversation', NewConversationPage);
