/**
 * "Download with data" of a conversation in a project, through the route as Next calls it, on the
 * embedded database and on Postgres: the zip holds, besides the conversation's own files, the
 * project's uploaded datasets the conversation used (the same rule as its reader's page and re-run:
 * `datasetsUsedBy`, each read through the one rule's dataset target), byte for byte, for its
 * author (a Can use member), for a project member it was shared to and for a reader outside the
 * project; a used dataset kept on a member's device is named in the README as kept on its owner's
 * device; a dataset the conversation did not use (added after its last message) is absent; a
 * stranger gets the same 404 as for a conversation that does not exist, and so does the reader
 * once removed; its author taken out of the project exports none of the project's datasets.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
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
    RUNPAD_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-bundle-datasets-')),
    DATABASE_URL: '',
    S3_BUCKET: '',
    REDIS_URL: '',
    AUTH_SECRET: 'bundle-datasets-secret-0123456789abcdef0123',
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
  'projects/id/members': () => import('@/app/api/projects/[id]/members/route'),
  'projects/id/members/id': () => import('@/app/api/projects/[id]/members/[memberId]/route'),
  'projects/id/files': () => import('@/app/api/projects/[id]/files/route'),
  'projects/id/device-files': () => import('@/app/api/projects/[id]/device-files/route'),
  'conversations/id/readers': () => import('@/app/api/conversations/[id]/readers/route'),
  'conversations/id/readers/id': () => import('@/app/api/conversations/[id]/readers/[readerId]/route'),
  'conversations/id/files': () => import('@/app/api/conversations/[id]/files/route'),
  'conversations/id/bundle': () => import('@/app/api/conversations/[id]/bundle/route'),
};
/** Calls the route file Next would for `path` (`/api/<area>/<id>/<sub>/<subId>`); the body as bytes. */
async function call({ method, path: pathname, body, raw, headers }: Call): Promise<{ status: number; json: Record<string, unknown> | null; bytes: Uint8Array }> {
  const [area, id, sub, subId] = pathname.split('/').slice(2);
  const key = [area, id && 'id', sub, subId && 'id'].filter(Boolean).join('/');
  const handler = (await MODULES[key]!())[method] as (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
  const params = { id: id ?? '', memberId: subId ?? '', readerId: subId ?? '' };
  const request = new Request(`${ORIGIN}${pathname}`, {
    method,
    headers: { origin: ORIGIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const response = await handler(request, { params: Promise.resolve(params) });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const json = bytes.length > 0 && response.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>) : null;
  return { status: response.status, json, bytes };
}
const upload = (url: string, name: string, text: string): Call => ({ method: 'POST', path: url, raw: new TextEncoder().encode(text), headers: { 'x-file-name': encodeURIComponent(name), 'content-type': 'application/octet-stream' } });
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** The zip's `data/` files by name with their SHA-256, and its README. */
function unpack(bytes: Uint8Array): { data: Record<string, string>; readme: string } {
  const entries = Object.entries(unzipSync(bytes));
  const data = Object.fromEntries(entries.flatMap(([name, content]) => (/\/data\/[^/]+$/.test(name) ? [[name.split('/data/')[1]!, sha256(content)]] : [])));
  const readme = entries.find(([name]) => name.endsWith('/README.md'));
  return { data, readme: readme ? new TextDecoder().decode(readme[1]) : '' };
}

const SALES = 'région,montant\nNord,12\nSud,30\n';
const OWN = 'the conversation’s own file\n';

for (const backend of [pgliteBackend(), serverBackend()]) {
  describe(`a project conversation’s zip with its data, on ${backend.name}`, () => {
    let db: Db;
    const ids = { owner: crypto.randomUUID(), author: crypto.randomUUID(), reader: crypto.randomUUID(), stranger: crypto.randomUUID() };
    type Person = keyof typeof ids;
    const as = (who: Person) => (identity = { ok: true, identity: { userId: ids[who], kind: 'account', isAdmin: false } });
    const live = openForTests(backend, Object.values(ids), (opened) => {
      db = opened.db;
      current.db = opened.db;
    });

    live('its author, a member it was shared to and its reader download the project datasets it used; not the others; a stranger gets the 404', async () => {
      current.db = db;
      const { authUsers, conversations, projectFiles } = await import('@/lib/db/schema.server');
      const { upsertMessage } = await import('@/lib/db/queries/messages.server');
      const { eq } = await import('drizzle-orm');
      for (const who of Object.keys(ids) as Person[]) await db.insert(authUsers).values({ id: ids[who], name: who, email: `${who}@example.com`, emailVerified: true });

      // The owner's project: an upload and a device-kept dataset; its author is a Can use member.
      as('owner');
      const project = (await call({ method: 'POST', path: '/api/projects', body: { name: 'Ventes' } })).json!.id as string;
      expect((await call(upload(`/api/projects/${project}/files`, 'ventes.csv', SALES))).status).toBe(201);
      expect((await call({ method: 'POST', path: `/api/projects/${project}/device-files`, body: { name: 'kept.csv', size: 10, sha256: 'e'.repeat(64) } })).status).toBe(201);
      const membership = await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: 'author@example.com', role: 'use' } });
      expect(membership.status).toBe(201);

      // The author's conversation in it: a file of its own, one message; a dataset added to the project afterwards.
      as('author');
      const conversation = crypto.randomUUID();
      await db.insert(conversations).values({ id: conversation, ownerId: ids.author, projectId: project, title: 'Ventes par région' });
      expect((await call(upload(`/api/conversations/${conversation}/files`, 'own.csv', OWN))).status).toBe(201);
      await upsertMessage(db, ids.author, conversation, { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'Sum the sales by region.' }] });
      await db.update(projectFiles).set({ createdAt: new Date(Date.now() - 60_000) }).where(eq(projectFiles.projectId, project));
      as('owner');
      const later = await call(upload(`/api/projects/${project}/files`, 'later.csv', 'added after the conversation\n'));
      await db.update(projectFiles).set({ createdAt: new Date(Date.now() + 3_600_000) }).where(eq(projectFiles.id, later.json!.id as string));
      as('author');
      for (const email of ['reader@example.com', 'owner@example.com']) expect((await call({ method: 'POST', path: `/api/conversations/${conversation}/readers`, body: { email } })).status).toBe(201);

      for (const who of ['author', 'owner', 'reader'] as const) {
        as(who);
        const bundle = await call({ method: 'GET', path: `/api/conversations/${conversation}/bundle` });
        expect(bundle.status, who).toBe(200);
        const { data, readme } = unpack(bundle.bytes);
        expect(data, who).toEqual({ 'own.csv': sha256(OWN), 'ventes.csv': sha256(SALES) });
        const [, onDevice] = readme.split("These files are kept on their owner's device");
        expect(onDevice, who).toContain('- kept.csv');
        expect(readme, who).not.toContain('later.csv');
      }

      // A stranger: the same 404 as a conversation that does not exist; so is the reader, once removed.
      as('stranger');
      const refused = await call({ method: 'GET', path: `/api/conversations/${conversation}/bundle` });
      const none = await call({ method: 'GET', path: `/api/conversations/${crypto.randomUUID()}/bundle` });
      expect([refused.status, refused.json]).toEqual([404, none.json]);
      as('author');
      const readers = (await call({ method: 'GET', path: `/api/conversations/${conversation}/readers` })).json!.readers as Array<{ id: string; email?: string }>;
      const reader = readers.find((entry) => JSON.stringify(entry).includes('reader@example.com'))!;
      expect((await call({ method: 'DELETE', path: `/api/conversations/${conversation}/readers/${reader.id}` })).status).toBe(204);
      as('reader');
      const removed = await call({ method: 'GET', path: `/api/conversations/${conversation}/bundle` });
      expect([removed.status, removed.json]).toEqual([404, none.json]);

      // Its author taken out of the project: their zip holds their conversation's own file, none of the project's datasets.
      as('owner');
      expect((await call({ method: 'DELETE', path: `/api/projects/${project}/members/${membership.json!.id as string}` })).status).toBe(204);
      as('author');
      const left = unpack((await call({ method: 'GET', path: `/api/conversations/${conversation}/bundle` })).bytes);
      expect([left.data, left.readme.includes('kept.csv')]).toEqual([{ 'own.csv': sha256(OWN) }, false]);
    });
  });
}
