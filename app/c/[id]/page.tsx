import { notFound } from 'next/navigation';
import { Chat } from '@/components/chat/chat';
import { EngineBoot } from '@/components/chat/engine-boot.server';
import { getClientConfig } from '@/lib/client-config.server';
import { targetConfigOf } from '@/lib/targets/engine';
import { resolveIdentity } from '@/lib/auth/current-user.server';
import { loadOwnConversation, loadReadableConversation } from '@/lib/chat/load-conversation.server';
import { SharedConversation } from '@/components/chat/shared-conversation';
import { initialModelId } from '@/lib/chat/choose-model.server';
import { getDb } from '@/lib/db/client.server';
import { projectDatasetsView } from '@/lib/chat/project-datasets.server';
import { withPageErrors } from '@/lib/http/page-errors.server';

export const dynamic = 'force-dynamic';

async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const who = await resolveIdentity();
  const userId = who.ok ? who.identity.userId : null;
  const conversation = userId ? await loadOwnConversation(userId, id) : null;
  const config = getClientConfig();
  if (!conversation) {
    // Shared with them to read (a person or a group), else the same 404 as an id that names nothing.
    const readable = who.ok ? await loadReadableConversation(who.identity, id) : null;
    if (!readable) notFound();
    return (
      <SharedConversation
        source={{ conversation: readable.id }}
        title={readable.title}
        messages={readable.messages}
        sharedAt={readable.updatedAt.toISOString()}
        files={readable.files.map((file) => ({ name: file.name, sha256: file.sha256, salts: file.salts, location: file.location, size: file.size }))}
        config={targetConfigOf(config)}
      />
    );
  }
  const db = await getDb();
  const modelId = await initialModelId(db, userId, conversation.modelId);
  // Its project's datasets under /data, while the person may still read them.
  const projectDatasets = who.ok ? await projectDatasetsView(db, who.identity, conversation.projectId) : null;
  // A stored conversation is opened to be read first: its engines (Python) start when something
  // needs them (components/chat/chat.tsx, `engineStart`), so no worker is booted with the page.
  const engineStart = conversation.messages.length > 0 ? 'when-needed' : 'now';
  return (
    <>
      {engineStart === 'now' && <EngineBoot config={config} />}
      <Chat
        key={conversation.id}
        conversationId={conversation.id}
        initialMessages={conversation.messages}
        initialFiles={conversation.files}
        title={conversation.title}
        config={config}
        signedIn={who.ok && who.identity.kind === 'account'}
        initialModelId={modelId}
        engineStart={engineStart}
        projectDatasets={projectDatasets}
      />
    </>
  );
}

export default withPageErrors('conversation', ConversationPage);
