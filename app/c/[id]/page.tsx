import { notFound } from 'next/navigation';
import { Chat } from '@/components/chat/chat';
import { KernelBoot } from '@/components/chat/kernel-boot.server';
import { getClientConfig } from '@/lib/client-config.server';
import { resolveIdentity } from '@/lib/auth/current-user.server';
import { loadOwnConversation, loadReadableConversation } from '@/lib/chat/load-conversation.server';
import { SharedConversation } from '@/components/chat/shared-conversation';
import { initialModelId } from '@/lib/chat/choose-model.server';
import { getDb } from '@/lib/db/client.server';
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
    const { pyodideIndexPath, packageBaseUrl, packageLockUrl, duckdbAssetPath, duckdbExtensionUrl, webrBasePath, rPackageRepoUrl, maxRunTimeoutMs } = config;
    return (
      <SharedConversation
        source={{ conversation: readable.id }}
        title={readable.title}
        messages={readable.messages}
        sharedAt={readable.updatedAt.toISOString()}
        files={readable.files.map((file) => ({ name: file.name, sha256: file.sha256, salts: file.salts, location: file.location, size: file.size }))}
        location={{ pyodideIndexPath, packageBaseUrl, packageLockUrl, duckdbAssetPath, duckdbExtensionUrl }}
        webr={{ webrBasePath, rPackageRepoUrl }}
        maxRunTimeoutMs={maxRunTimeoutMs}
      />
    );
  }
  const modelId = await initialModelId(await getDb(), userId, conversation.modelId);
  // A stored conversation is opened to be read first: Python starts when something needs it
  // (components/chat/chat.tsx, `pythonStart`), so its worker is not booted with the page.
  const pythonStart = conversation.messages.length > 0 ? 'when-needed' : 'now';
  return (
    <>
      {pythonStart === 'now' && <KernelBoot location={config} />}
      <Chat
        key={conversation.id}
        conversationId={conversation.id}
        initialMessages={conversation.messages}
        initialFiles={conversation.files}
        title={conversation.title}
        config={config}
        signedIn={who.ok && who.identity.kind === 'account'}
        initialModelId={modelId}
        pythonStart={pythonStart}
      />
    </>
  );
}

export default withPageErrors('conversation', ConversationPage);
