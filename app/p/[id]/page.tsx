import Link from 'next/link';
import { notFound } from 'next/navigation';
import { GranteesEditor } from '@/components/chat/grantees-editor';
import { may } from '@/lib/access/authorize.server';
import { projectView } from '@/lib/access/projects.server';
import { resolveIdentity } from '@/lib/auth/current-user.server';
import { getDb } from '@/lib/db/client.server';
import { conversationIdSchema } from '@/lib/http/session.server';
import { withPageErrors } from '@/lib/http/page-errors.server';
import { listProjectFiles } from '@/lib/files/project-files.server';
import { ProjectDatasets } from '@/components/projects/project-datasets';
import { ProjectInstructions } from '@/components/projects/project-instructions';

export const dynamic = 'force-dynamic';

const ROLE_WORDS = { owner: 'Owner', edit: 'Can edit', use: 'Can use' } as const;

/**
 * A project's page: its instructions (its editors change them here), datasets, members and the
 * person's own conversations in it, with
 * "New chat in this project". To its members only (the one authorization rule); anyone else
 * gets the same page as an address that names nothing.
 */
async function ProjectPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const who = await resolveIdentity();
  const parsed = conversationIdSchema.safeParse(id);
  const db = await getDb();
  if (!parsed.success || !who.ok || !(await may(db, who.identity, 'read', { project: parsed.data }))) notFound();
  const project = await projectView(db, who.identity, parsed.data);
  const canEdit = project.role !== 'use';
  const files = (await listProjectFiles(db, project.id)).map(({ id, name, size, mediaType, sha256, location, columns, rows }) => ({ id, name, size, mediaType, sha256, location, columns, rows }));
  return (
    <main className="mx-auto w-full max-w-3xl space-y-8 px-4 py-8">
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 flex-1 break-words text-xl font-semibold">{project.name}</h1>
        <span className="text-sm text-zinc-600 dark:text-zinc-400">{ROLE_WORDS[project.role]}</span>
        <Link href={`/?project=${project.id}`} className="rounded-lg bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2">
          New chat in this project
        </Link>
      </header>
      <Section id="instructions" title="Instructions">
        <ProjectInstructions projectId={project.id} instructions={project.instructions} canEdit={canEdit} />
        <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
          The model sees {project.modelSees === 'schema' ? 'only the shape of the data (names, types, sizes)' : 'the outputs of the code and of the files'}
          {project.model ? `; conversations start on ${project.model}` : ''}.
        </p>
      </Section>
      <Section id="datasets" title="Datasets">
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">Every conversation started in this project has them under /data.</p>
        <ProjectDatasets projectId={project.id} files={files} canEdit={canEdit} />
      </Section>
      <Section id="members" title="Members">
        {project.role === 'use' ? (
          <ul className="mt-2 divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
            {project.members.length === 0 && <li className="py-2 text-zinc-600 dark:text-zinc-400">Only its owner.</li>}
            {project.members.map((member) => (
              <li key={member.id} className="flex flex-wrap gap-2 py-2">
                <span className="min-w-0 flex-1 break-all">{member.email ?? `Group: ${member.groupName ?? 'a deleted group'}`}</span>
                <span className="text-zinc-600 dark:text-zinc-400">{ROLE_WORDS[member.role]}</span>
              </li>
            ))}
          </ul>
        ) : (
          // Its owner and whoever can edit it add and remove members: people by email, or groups.
          <div className="mt-2 text-sm">
            <GranteesEditor listUrl={`/api/projects/${project.id}`} listKey="members" base={`/api/projects/${project.id}/members`} label="Add a member by email" listLabel="Members" withRole />
          </div>
        )}
      </Section>
      <Section id="conversations" title="Your conversations in it">
        <ul className="mt-2 space-y-1 text-sm">
          {project.conversations.length === 0 && <li className="text-zinc-600 dark:text-zinc-400">None yet.</li>}
          {project.conversations.map((conversation) => (
            <li key={conversation.id}>
              <Link href={`/c/${conversation.id}`} className="break-words text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
                {conversation.title ?? 'Untitled conversation'}
              </Link>
            </li>
          ))}
        </ul>
      </Section>
    </main>
  );
}

/** A part of the page under its heading, named by it for screen readers. */
function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-sm font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default withPageErrors('project', ProjectPage);
