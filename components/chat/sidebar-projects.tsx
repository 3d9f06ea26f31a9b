'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useId, useState } from 'react';
import { z } from 'zod';
import { readJsonAs } from '@/lib/http/error-body.client';

const projectsSchema = z.object({ projects: z.array(z.object({ id: z.uuid(), name: z.string() })) });
type Project = z.infer<typeof projectsSchema>['projects'][number];

/**
 * The sidebar's projects, above its conversations: the ones the person owns or is a member of,
 * each a link to its page (/p/<id>). Nothing shows when there are none (or they cannot be read:
 * the conversations below say what failed).
 */
export function SidebarProjects() {
  const currentPath = usePathname();
  const [projects, setProjects] = useState<Project[]>([]);
  const headingId = useId();
  useEffect(() => {
    const aborted = new AbortController();
    void fetch('/api/projects', { signal: aborted.signal })
      .then(async (response) => (response.ok ? readJsonAs(response, projectsSchema) : null))
      .then((body) => body && setProjects(body.projects))
      .catch(() => undefined);
    return () => aborted.abort();
  }, []);
  if (projects.length === 0) return null;
  return (
    <div className="mb-2">
      <h2 id={headingId} className="px-2 py-1 text-xs font-medium text-zinc-600 dark:text-zinc-400">
        Projects
      </h2>
      <ul aria-labelledby={headingId}>
        {projects.map((project) => (
          <li key={project.id}>
            <Link
              href={`/p/${project.id}`}
              aria-current={currentPath === `/p/${project.id}` ? 'page' : undefined}
              className="block truncate rounded-lg px-2 py-1.5 text-sm hover:bg-zinc-200 focus-visible:outline focus-visible:outline-2 dark:hover:bg-zinc-800"
            >
              {project.name}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
