/**
 * A conversation of a project shared to someone who is not the project's member, through the
 * routes as Next calls them, on the embedded database and on Postgres: its reader's page lists the
 * project's uploaded datasets the conversation had under /data, and the reader reads their bytes by
 * id and by hash; never the project's other datasets (added after the conversation's last message,
 * or shadowed by a file of its own), its list of datasets, its members or the project itself, and
 * nothing once the reader is removed or the conversation's author left the project.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, vi } from 'vitest';
import type { Db } from '@/lib/db/client.server';
import { AppError } from '@/lib/errors.server';
import { openForTests, pgliteBackend, serverBackend } from '@/lib/testing/databases';
import { stubEnvs } from '@/lib/testing/stub-env';

const ORIGIN = 'https://runpad.example';
type Who = { userId: string; kind: 'account'; isAdmin: boolean };
let identity: { ok: true; identity: Who } | { ok: false; refusal: AppError } = { ok: false, refusal: new AppError('session:sign_in_required') };
vi.mock('@/lib/auth/current-user.server', () => ({ sessionGuestId: async () => null, resolveIdentity: async () => identity }));
/** The database the routes read: the backend this describe opened. */
const current = vi.hoisted(() => ({ db: null as unknown }));
vi.mock('@/lib/db/client.server', async (importOriginal) => ({ ...(await importOriginal<typeof import('@/lib/db/client.server')>()), getDb: async () => current.db }));

beforeAll(() => {
  stubEnvs({
    RUNPAD_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-shared-datasets-')),
    DATABASE_URL: '',
    S3_BUCKET: '',
    REDIS_URL: '',
    AUTH_SECRET: 'shared-datasets-secret-0123456789abcdef0123',
    RUNPAD_PUBLIC_ORIGIN: ORIGIN,
    RUNPAD_ACCESS: 'accounts',
    RUNPAD_SMTP_URL: '',
    RUNPAD_LOG_LEVEL: 'silent',
  });
});
afterAll(() => vi.unstubAllEnvs());

type Call = { method: 'GET' | 'POST' | 'DELETE'; path: string; body?: unknown; raw?: Uint8Array<ArrayBuffer>; headers?: Record<string, string> };
const MODULES: Record<string, () => Promise<Record<string, unknown>>> = {
  'projects': () => import('@/app/api/projects/route'),
  'projects/id': () => import('@/app/api/projects/[id]/route'),
  'projects/id/members': () => import('@/app/api/projects/[id]/members/route'),
  'projects/id/members/id': () => import('@/app/api/projects/[id]/members/[memberId]/route'),
  'projects/id/files': () => import('@/app/api/projects/[id]/files/route'),
  'projects/id/files/id': () => import('@/app/api/projects/[id]/files/[fileId]/route'),
  'projects/id/device-files': () => import('@/app/api/projects/[id]/device-files/route'),
  'conversations/id/readers': () => import('@/app/api/conversations/[id]/readers/route'),
  'conversations/id/readers/id': () => import('@/app/api/conversations/[id]/readers/[readerId]/route'),
  'conversations/id/files': () => import('@/app/api/conversations/[id]/files/route'),
  'blobs/id': () => import('@/app/api/blobs/[sha]/route'),
};
/** Calls the route file Next would for `path` (`/api/<area>/<id>/<sub>/<subId>?…`). */
async function call({ method, path: pathname, body, raw, headers }: Call): Promise<{ status: number; json: Record<string, unknown> | null; text: string; headers: Headers }> {
  const [area, id, sub, subId] = pathname.split('?')[0]!.split('/').slice(2);
  const key = [area, id && 'id', sub, subId && 'id'].filter(Boolean).join('/');
  const handler = (await MODULES[key]!())[method] as (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
  const params = { id: id ?? '', sha: id ?? '', memberId: subId ?? '', readerId: subId ?? '', fileId: subId ?? '' };
  const request = new Request(`${ORIGIN}${pathname}`, {
    method,
    headers: { origin: ORIGIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const response = await handler(request, { params: Promise.resolve(params) });
  const text = await response.text();
  return { status: response.status, json: text && response.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(text) as Record<string, unknown>) : null, text, headers: response.headers };
}
const upload = (url: string, name: string, text: string): Call => ({ method: 'POST', path: url, raw: new TextEncoder().encode(text), headers: { 'x-file-name': encodeURIComponent(name), 'content-type': 'application/octet-stream' } });

for (const backend of [pgliteBackend(), serverBackend()]) {
  describe(`a shared conversation’s reader and its project’s datasets, on ${backend.name}`, () => {
    let db: Db;
    const ids = { owner: crypto.randomUUID(), member: crypto.randomUUID(), reader: crypto.randomUUID(), stranger: crypto.randomUUID() };
    type Person = keyof typeof ids;
    const as = (who: Person) => (identity = { ok: true, identity: { userId: ids[who], kind: 'account', isAdmin: false } });
    const live = openForTests(backend, Object.values(ids), (opened) => {
      db = opened.db;
      current.db = opened.db;
    });

    live('the reader reads the datasets the conversation used, by id and by hash; nothing else of the project; nothing once removed or once its author left', async () => {
      current.db = db;
      const { authUsers, conversations, projectFiles } = await import('@/lib/db/schema.server');
      const { upsertMessage } = await import('@/lib/db/queries/messages.server');
      const { loadReadableConversation } = await import('@/lib/chat/load-conversation.server');
      const { eq } = await import('drizzle-orm');
      for (const who of Object.keys(ids) as Person[]) await db.insert(authUsers).values({ id: ids[who], name: who, email: `${who}@example.com`, emailVerified: true });

      as('owner');
      const project = (await call({ method: 'POST', path: '/api/projects', body: { name: 'Ventes' } })).json!.id as string;
      const used = await call(upload(`/api/projects/${project}/files`, 'ventes «Q3» "nord".csv', 'région,montant\n"Île ""Nord""",12\n'));
      const shadowed = await call(upload(`/api/projects/${project}/files`, 'own.csv', 'the project’s own.csv\n'));
      expect([used.status, shadowed.status]).toEqual([201, 201]);
      expect((await call({ method: 'POST', path: `/api/projects/${project}/device-files`, body: { name: 'kept.csv', size: 10, sha256: 'e'.repeat(64) } })).status).toBe(201);
      // The owner's conversation in the project: its own own.csv shadows the project's; one message, then a dataset added later.
      const conversation = crypto.randomUUID();
      await db.insert(conversations).values({ id: conversation, ownerId: ids.owner, projectId: project });
      expect((await call(upload(`/api/conversations/${conversation}/files`, 'own.csv', 'the conversation’s own.csv\n'))).status).toBe(201);
      await upsertMessage(db, ids.owner, conversation, { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'Sum the sales.' }] });
      await db.update(projectFiles).set({ createdAt: new Date(Date.now() - 60_000) }).where(eq(projectFiles.projectId, project));
      const later = await call(upload(`/api/projects/${project}/files`, 'later.csv', 'added after the conversation\n'));
      await db.update(projectFiles).set({ createdAt: new Date(Date.now() + 3_600_000) }).where(eq(projectFiles.id, later.json!.id as string));
      const [usedId, usedSha, laterId, laterSha, shadowedId, shadowedSha] = [used, later, shadowed].flatMap((answer) => [answer.json!.id as string, answer.json!.sha256 as string]) as [string, string, string, string, string, string];
      expect((await call({ method: 'POST', path: `/api/conversations/${conversation}/readers`, body: { email: 'READER@example.com' } })).status).toBe(201);

      as('reader');
      const reader = identity.ok ? identity.identity : null;
      // Its page: the dataset the conversation used, beside its own upload; not the later one, not the shadowed one, not the device-kept one.
      const page = await loadReadableConversation(reader, conversation);
      expect(page!.files.map((file) => [file.name, file.location])).toEqual([
        ['own.csv', 'account'],
        ['ventes «Q3» _nord_.csv', 'account'],
      ]);
      expect(JSON.stringify(page)).not.toContain('e'.repeat(64));
      // By hash, through the conversation; by id, a redirect to it by hash with the dataset named.
      const byHash = await call({ method: 'GET', path: `/api/blobs/${usedSha}?conversation=${conversation}` });
      expect([byHash.status, byHash.text, byHash.headers.get('cache-control')]).toEqual([200, 'région,montant\n"Île ""Nord""",12\n', expect.stringMatching(/no-cache/)]);
      const byId = await call({ method: 'GET', path: `/api/projects/${project}/files/${usedId}` });
      expect([byId.status, byId.headers.get('location')]).toEqual([303, `/api/blobs/${usedSha}?dataset=${usedId}`]);
      expect((await call({ method: 'GET', path: byId.headers.get('location')! })).text).toBe('région,montant\n"Île ""Nord""",12\n');
      // Nothing else of the project: the others by id and by hash, its list, the project, its members, its bytes through it.
      const refused: Call[] = [
        { method: 'GET', path: `/api/blobs/${laterSha}?conversation=${conversation}` },
        { method: 'GET', path: `/api/blobs/${shadowedSha}?conversation=${conversation}` },
        { method: 'GET', path: `/api/blobs/${laterSha}?dataset=${laterId}` },
        { method: 'GET', path: `/api/blobs/${laterSha}?dataset=${usedId}` },
        { method: 'GET', path: `/api/blobs/${usedSha}?project=${project}` },
        { method: 'GET', path: `/api/blobs/${usedSha}` },
        { method: 'GET', path: `/api/projects/${project}/files/${laterId}` },
        { method: 'GET', path: `/api/projects/${project}/files/${shadowedId}` },
        { method: 'GET', path: `/api/projects/${crypto.randomUUID()}/files/${usedId}` },
        { method: 'GET', path: `/api/projects/${project}/files` },
        { method: 'GET', path: `/api/projects/${project}` },
        { method: 'POST', path: `/api/projects/${project}/members`, body: { email: 'stranger@example.com', role: 'use' } },
        { method: 'DELETE', path: `/api/projects/${project}/files/${usedId}` },
      ];
      const statuses = async (requests: Call[]) => Promise.all(requests.map(async (request) => `${request.method} ${request.path} ${(await call(request)).status}`));
      expect(await statuses(refused)).toEqual(refused.map((request) => `${request.method} ${request.path} 404`));
      expect(await statuses(refused)).toEqual(refused.map((request) => `${request.method} ${request.path} 404`));
      const granted: Call[] = [
        { method: 'GET', path: `/api/blobs/${usedSha}?conversation=${conversation}` },
        { method: 'GET', path: `/api/blobs/${usedSha}?dataset=${usedId}` },
        { method: 'GET', path: `/api/projects/${project}/files/${usedId}` },
      ];
      // A stranger: the same 404 as for what does not exist, for what the reader was given too.
      as('stranger');
      expect(await statuses(granted)).toEqual(granted.map((request) => `${request.method} ${request.path} 404`));
      expect(await loadReadableConversation({ userId: ids.stranger, kind: 'account' }, conversation)).toBeNull();

      // Once the author can no longer read the project's datasets, neither can their reader: shown by a member's conversation.
      as('owner');
      const membership = (await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: 'member@example.com', role: 'use' } })).json!.id as string;
      const theirs = crypto.randomUUID();
      await db.insert(conversations).values({ id: theirs, ownerId: ids.member, projectId: project });
      await upsertMessage(db, ids.member, theirs, { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'Hi' }] });
      as('member');
      expect((await call({ method: 'POST', path: `/api/conversations/${theirs}/readers`, body: { email: 'stranger@example.com' } })).status).toBe(201);
      as('stranger');
      expect((await call({ method: 'GET', path: `/api/blobs/${usedSha}?conversation=${theirs}` })).status).toBe(200);
      as('owner');
      expect((await call({ method: 'DELETE', path: `/api/projects/${project}/members/${membership}` })).status).toBe(204);
      as('stranger');
      expect((await call({ method: 'GET', path: `/api/blobs/${usedSha}?conversation=${theirs}` })).status).toBe(404);
      expect((await loadReadableConversation({ userId: ids.stranger, kind: 'account' }, theirs))!.files).toEqual([]);

      // The reader removed: nothing, at once.
      as('owner');
      const readers = (await call({ method: 'GET', path: `/api/conversations/${conversation}/readers` })).json!.readers as Array<{ id: string }>;
      expect((await call({ method: 'DELETE', path: `/api/conversations/${conversation}/readers/${readers[0]!.id}` })).status).toBe(204);
      as('reader');
      expect(await statuses(granted)).toEqual(granted.map((request) => `${request.method} ${request.path} 404`));
    });
  });
}
