import { Chat } from '@/components/chat/chat';
import { EngineBoot } from '@/components/chat/engine-boot.server';
import { getClientConfig } from '@/lib/client-config.server';
import { resolveIdentity } from '@/lib/auth/current-user.server';
import { initialModelId } from '@/lib/chat/choose-model.server';
import { getDb } from '@/lib/db/client.server';
import { withPageErrors } from '@/lib/http/page-errors.server';
import { may } from '@/lib/access/authorize.server';
import { getProject } from '@/lib/db/queries/projects.server';
import { projectDatasetsView } from '@/lib/chat/project-datasets.server';
import { conversationIdSchema } from '@/lib/http/session.server';
import { findConfiguredModel } from '@/lib/config.server';

export const dynamic = 'force-dynamic';

/**
 * A new conversation; it is stored when its first message is sent. It starts with the model used
 * last, or in a project (`/?project=<id>`, "New chat in this project") with the project's model,
 * when the one authorization rule lets the person work in it (else it is an ordinary new chat),
 * with the project's datasets under /data.
 */
async function NewConversationPage({ searchParams }: { searchParams: Promise<{ project?: string | string[] }> }) {
  const config = getClientConfig();
  const who = await resolveIdentity();
  const db = await getDb();
  const asked = conversationIdSchema.safeParse((await searchParams).project);
  const project = asked.success && who.ok && (await may(db, who.identity, 'run', { project: asked.data })) ? await getProject(db, asked.data) : null;
  const projectDatasets = project && who.ok ? await projectDatasetsView(db, who.identity, project.id) : null;
  const modelId = (project?.modelId && findConfiguredModel(project.modelId)?.id) || (await initialModelId(db, who.ok ? who.identity.userId : null, null));
  return (
    <>
      <EngineBoot config={config} />
      <Chat key={`new-${project?.id ?? ''}`} projectId={project?.id} conversationId={crypto.randomUUID()} initialMessages={[]} initialFiles={[]} title={null} config={config} signedIn={who.ok && who.identity.kind === 'account'} initialModelId={modelId} projectDatasets={projectDatasets} />
    </>
  );
}

export default withPageErrors('new-conversation', NewConversationPage);
