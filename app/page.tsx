import { Chat } from '@/components/chat/chat';
import { getClientConfig } from '@/lib/config';

export const dynamic = 'force-dynamic';

/** A new conversation; it is stored when its first message is sent. */
export default function NewConversationPage() {
  return <Chat key="new" conversationId={crypto.randomUUID()} initialMessages={[]} initialFiles={[]} title={null} config={getClientConfig()} />;
}
