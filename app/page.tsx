import { Chat } from '@/components/chat/chat';
import { KernelBoot } from '@/components/chat/kernel-boot';
import { getClientConfig } from '@/lib/config';

export const dynamic = 'force-dynamic';

/** A new conversation; it is stored when its first message is sent. */
export default function NewConversationPage() {
  const config = getClientConfig();
  return (
    <>
      <KernelBoot location={config} />
      <Chat key="new" conversationId={crypto.randomUUID()} initialMessages={[]} initialFiles={[]} title={null} config={config} />
    </>
  );
}
