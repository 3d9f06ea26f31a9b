/**
 * The projects' and shares' HTTP interface, called as Next calls the routes, on an embedded
 * database: every route answers a stranger the same 404 as an id that names nothing, a member
 * what their role allows (403 in words for the rest), checks the origin and the body's type and
 * shape, keeps a project's model-sees policy within the operator's, and records each share.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '@/lib/errors.server';
import { migratedDataDir } from '@/lib/testing/migrated-data-dir';
import { stubEnvs } from '@/lib/testing/stub-env';

const ORIGIN = 'https://runpad.example';
type Who = { userId: string; kind: 'account' | 'guest'; isAdmin: boolean };
let identity: { ok: true; identity: Who } | { ok: false; refusal: AppError } = { ok: false, refusal: new AppError('session:sign_in_required') };
vi.mock('@/lib/auth/current-user.server', () => ({ sessionGuestId: async () => null, resolveIdentity: async () => identity }));
/** RUNPAD_PUBLIC_SHARES as an operator would change it between restarts (undefined: as the environment says). */
const links = vi.hoisted(() => ({ setting: undefined as undefined | 'on' | 'signed-in' | 'off' }));
vi.mock('@/lib/config.server', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/lib/config.server')>();
  return { ...actual, getConfig: () => ({ ...actual.getConfig(), ...(links.setting ? { publicShares: links.setting } : {}) }) };
});
// The project page's client parts are rendered to markup here, outside Next's app router.
vi.mock('next/navigation', async (original) => ({ ...(await original<typeof import('next/navigation')>()), useRouter: () => ({ refresh: () => undefined }) }));

beforeAll(() => {
  stubEnvs({
    RUNPAD_DATA_DIR: migratedDataDir('runpad-projects-routes-'),
    DATABASE_URL: '',
    AUTH_SECRET: 'projects-routes-secret-projects-routes-0123',
    RUNPAD_PUBLIC_ORIGIN: ORIGIN,
    RUNPAD_ACCESS: 'accounts',
    RUNPAD_ADMIN_EMAILS: '',
    RUNPAD_ALLOWED_EMAILS: '',
    RUNPAD_OIDC_ISSUER: '',
    RUNPAD_SMTP_URL: '',
    RUNPAD_MODEL_SEES: 'schema',
    RUNPAD_LOG_LEVEL: 'silent',
  });
});
afterAll(() => vi.unstubAllEnvs());

const db = async () => (await import('@/lib/db/client.server')).getDb();
const PEOPLE = { owner: "zoë.o'neil@example.com", user: 'User"Quoted"+tag@example.com', editor: 'редактор@example.com', grouped: '成员@example.com', stranger: 'stranger@example.com', admin: 'admin@example.com' };
type Person = keyof typeof PEOPLE;
const ids = {} as Record<Person, string>;
const as = (who: Person | 'guest' | null) => {
  identity = who === null ? { ok: false, refusal: new AppError('session:sign_in_required') } : { ok: true, identity: { userId: who === 'guest' ? guestId : ids[who], kind: who === 'guest' ? 'guest' : 'account', isAdmin: who === 'admin' } };
};
const guestId = crypto.randomUUID();

type Call = { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown; headers?: Record<string, string>; raw?: Uint8Array<ArrayBuffer> };
/** Calls the route file that Next would for `path`, with the params it would pass. */
async function call({ method, path: pathname, body, headers, raw }: Call): Promise<{ status: number; json: Record<string, unknown> | null; text: string; headers: Headers }> {
  const segments = pathname.split('/').slice(2);
  // /api/admin/groups[/<id>[/members/<userId>]] as /api/<area>/<id>/<sub>/<subId> with area "admin/groups".
  const [area, id, sub, subId] = segments[0] === 'admin' ? [`admin/${segments[1]}`, segments[2], segments[3], segments[4]] : segments;
  const modules: Record<string, () => Promise<Record<string, unknown>>> = {
    'projects': () => import('@/app/api/projects/route'),
    'projects/id': () => import('@/app/api/projects/[id]/route'),
    'projects/id/members': () => import('@/app/api/projects/[id]/members/route'),
    'projects/id/members/id': () => import('@/app/api/projects/[id]/members/[memberId]/route'),
    'projects/id/files': () => import('@/app/api/projects/[id]/files/route'),
    'projects/id/files/id': () => import('@/app/api/projects/[id]/files/[fileId]/route'),
    'projects/id/device-files': () => import('@/app/api/projects/[id]/device-files/route'),
    'conversations/id/readers': () => import('@/app/api/conversations/[id]/readers/route'),
    'conversations/id/readers/id': () => import('@/app/api/conversations/[id]/readers/[readerId]/route'),
    'admin/groups': () => import('@/app/api/admin/groups/route'),
    'admin/groups/id': () => import('@/app/api/admin/groups/[id]/route'),
    'admin/groups/id/members/id': () => import('@/app/api/admin/groups/[id]/members/[userId]/route'),
    'groups': () => import('@/app/api/groups/route'),
    'conversations/id': () => import('@/app/api/conversations/[id]/route'),
    'conversations/id/notebook': () => import('@/app/api/conversations/[id]/notebook/route'),
    'conversations/id/script': () => import('@/app/api/conversations/[id]/script/route'),
    'conversations/id/bundle': () => import('@/app/api/conversations/[id]/bundle/route'),
    'conversations/id/share': () => import('@/app/api/conversations/[id]/share/route'),
    'conversations/id/fork': () => import('@/app/api/conversations/[id]/fork/route'),
    'chat/id/stream': () => import('@/app/api/chat/[id]/stream/route'),
    'blobs/id': () => import('@/app/api/blobs/[sha]/route'),
    'shares/id/notebook': () => import('@/app/api/shares/[id]/notebook/route'),
    'shares/id/script': () => import('@/app/api/shares/[id]/script/route'),
    'shares/id/fork': () => import('@/app/api/shares/[id]/fork/route'),
  };
  const key = [area, id && 'id', sub?.split('?')[0], subId && 'id'].filter(Boolean).join('/');
  const handler = (await modules[key]!())[method] as (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
  const params = { id: id?.split('?')[0] ?? '', sha: id?.split('?')[0] ?? '', memberId: subId ?? '', readerId: subId ?? '', fileId: subId ?? '', userId: subId ?? '' };
  const request = new Request(`${ORIGIN}${pathname}`, {
    method,
    headers: { origin: ORIGIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const response = await handler(request, { params: Promise.resolve(params) });
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('application/json') && text ? (JSON.parse(text) as Record<string, unknown>) : null;
  return { status: response.status, json, text, headers: response.headers };
}

async function newAccount(email: string): Promise<string> {
  const { authUsers } = await import('@/lib/db/schema.server');
  const { ensureUser } = await import('@/lib/db/queries/users.server');
  const id = crypto.randomUUID();
  await (await db()).insert(authUsers).values({ id, name: email, email, emailVerified: true, role: 'member', admittedAt: new Date() });
  await ensureUser(await db(), id);
  return id;
}

describe('the projects’ and shares’ routes', () => {
  let project = '';
  let conversation = '';

  it('a person makes a project; its model-sees policy is never wider than the operator’s; an unknown model is refused in words', async () => {
    for (const person of Object.keys(PEOPLE) as Person[]) ids[person] = await newAccount(PEOPLE[person]);
    const { ensureUser } = await import('@/lib/db/queries/users.server');
    await ensureUser(await db(), guestId);
    as('owner');
    const made = await call({ method: 'POST', path: '/api/projects', body: { name: 'Ventes “Q3” — 数据\n2026', instructions: 'Réponds en français, "toujours".', modelSees: 'outputs' } });
    expect(made.status).toBe(201);
    project = made.json!.id as string;
    const read = await call({ method: 'GET', path: `/api/projects/${project}` });
    expect(read.json).toMatchObject({ id: project, name: 'Ventes “Q3” — 数据\n2026', instructions: 'Réponds en français, "toujours".', modelSees: 'schema', role: 'owner', members: [] });
    const wrongModel = await call({ method: 'POST', path: '/api/projects', body: { name: 'x', model: 'gpt-"nope"' } });
    expect([wrongModel.status, wrongModel.json?.error]).toEqual([400, expect.stringMatching(/offers no model "gpt-"nope"": pick one of/)]);
    // A guest has no email to be shared by: projects need an account.
    as('guest');
    expect((await call({ method: 'POST', path: '/api/projects', body: { name: 'x' } })).status).toBe(401);
    as('owner');
    expect((await call({ method: 'GET', path: '/api/projects' })).json).toEqual({ projects: [expect.objectContaining({ id: project })] });
    const { conversations } = await import('@/lib/db/schema.server');
    conversation = crypto.randomUUID();
    await (await db()).insert(conversations).values({ id: conversation, ownerId: ids.owner, projectId: project });
  });

  it('members by email or group: what each role may do, a 404 for everyone else on every route', async () => {
    as('owner');
    const user = await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: PEOPLE.user.toUpperCase(), role: 'use' } });
    expect(user.status).toBe(201);
    expect((await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: ` ${PEOPLE.editor} `, role: 'edit' } })).status).toBe(201);
    // An email no account has is invited: it waits (lib/access/project-invitations.test.ts walks it).
    const noAccount = await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: 'nobody@example.com', role: 'use' } });
    expect([noAccount.status, noAccount.json]).toEqual([201, expect.objectContaining({ status: 'invited', email: 'nobody@example.com', emailSent: false })]);
    expect((await call({ method: 'DELETE', path: `/api/projects/${project}/members/${noAccount.json!.id as string}` })).status).toBe(204);

    // Groups are the admins'.
    as('owner');
    expect((await call({ method: 'POST', path: '/api/admin/groups', body: { name: 'Équipe', emails: [PEOPLE.grouped] } })).status).toBe(403);
    as('admin');
    const unknown = await call({ method: 'POST', path: '/api/admin/groups', body: { name: 'Équipe', emails: [PEOPLE.grouped, 'ghost@example.com'] } });
    expect([unknown.status, unknown.json?.error]).toEqual([404, expect.stringContaining('ghost@example.com')]);
    const group = await call({ method: 'POST', path: '/api/admin/groups', body: { name: "Équipe 'data'", emails: [PEOPLE.grouped] } });
    expect(group.status).toBe(201);
    as('editor');
    expect((await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { groupId: group.json!.id, role: 'use' } })).status).toBe(201);
    expect((await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { groupId: crypto.randomUUID(), role: 'use' } })).status).toBe(404);

    as('user');
    expect((await call({ method: 'GET', path: `/api/projects/${project}` })).json).toMatchObject({ role: 'use', members: expect.arrayContaining([expect.objectContaining({ groupName: "Équipe 'data'", role: 'use' })]) });
    const change = await call({ method: 'PATCH', path: `/api/projects/${project}`, body: { instructions: 'Ignore the owner.' } });
    expect([change.status, change.json?.error]).toEqual([403, expect.stringMatching(/Your role in this project does not allow that/)]);
    expect((await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: PEOPLE.stranger, role: 'edit' } })).status).toBe(403);
    expect((await call({ method: 'DELETE', path: `/api/projects/${project}` })).status).toBe(403);
    as('grouped');
    expect((await call({ method: 'GET', path: `/api/projects/${project}` })).json).toMatchObject({ role: 'use' });
    as('editor');
    expect((await call({ method: 'PATCH', path: `/api/projects/${project}`, body: { instructions: 'Use metric units.', modelSees: 'outputs' } })).json).toMatchObject({ instructions: 'Use metric units.', modelSees: 'schema' });
    expect((await call({ method: 'DELETE', path: `/api/projects/${project}` })).status).toBe(403);

    // Every route, for a stranger, a guest and an id that names nothing: the same 404.
    const member = user.json!.id as string;
    const routes = (id: string): Call[] => [
      { method: 'GET', path: `/api/projects/${id}` },
      { method: 'PATCH', path: `/api/projects/${id}`, body: { name: 'mine' } },
      { method: 'DELETE', path: `/api/projects/${id}` },
      { method: 'POST', path: `/api/projects/${id}/members`, body: { email: PEOPLE.stranger, role: 'edit' } },
      { method: 'DELETE', path: `/api/projects/${id}/members/${member}` },
    ];
    const conversationRoutes = (id: string): Call[] => [
      { method: 'GET', path: `/api/conversations/${id}/readers` },
      { method: 'POST', path: `/api/conversations/${id}/readers`, body: { email: PEOPLE.stranger } },
      { method: 'DELETE', path: `/api/conversations/${id}/readers/${crypto.randomUUID()}` },
    ];
    for (const who of ['stranger', 'guest'] as const) {
      as(who);
      for (const request of [...routes(project), ...routes(crypto.randomUUID()), ...routes('not-a-uuid'), ...conversationRoutes(conversation), ...conversationRoutes(crypto.randomUUID())]) {
        const answer = await call(request);
        expect([who, request.method, request.path, answer.status, answer.json?.error]).toEqual([who, request.method, request.path, 404, 'Not found.']);
      }
    }
    as(null);
    for (const request of [...routes(project), ...conversationRoutes(conversation), { method: 'GET', path: '/api/projects' } as Call]) expect((await call(request)).status).toBe(401);

    // Removing a member ends their access at once.
    as('owner');
    expect((await call({ method: 'DELETE', path: `/api/projects/${project}/members/${member}` })).status).toBe(204);
    expect((await call({ method: 'DELETE', path: `/api/projects/${project}/members/${member}` })).status).toBe(404);
    as('user');
    expect((await call({ method: 'GET', path: `/api/projects/${project}` })).status).toBe(404);
  });

  it('a conversation is shared to read with a person or a group, by its author only', async () => {
    as('owner');
    const reader = await call({ method: 'POST', path: `/api/conversations/${conversation}/readers`, body: { email: PEOPLE.stranger } });
    expect(reader.status).toBe(201);
    expect((await call({ method: 'POST', path: `/api/conversations/${conversation}/readers`, body: { email: PEOPLE.stranger } })).json).toEqual({ id: reader.json!.id });
    expect((await call({ method: 'GET', path: `/api/conversations/${conversation}/readers` })).json).toEqual({ readers: [expect.objectContaining({ id: reader.json!.id, email: PEOPLE.stranger })] });
    // A reader reads; sharing it on is its author's.
    as('stranger');
    const onward = await call({ method: 'POST', path: `/api/conversations/${conversation}/readers`, body: { email: PEOPLE.user } });
    expect([onward.status, onward.json?.error]).toEqual([403, expect.stringMatching(/only its author may change it/)]);
    as('owner');
    expect((await call({ method: 'DELETE', path: `/api/conversations/${conversation}/readers/${reader.json!.id}` })).status).toBe(204);
    as('stranger');
    expect((await call({ method: 'GET', path: `/api/conversations/${conversation}/readers` })).status).toBe(404);

    const { listShareAudit } = await import('@/lib/db/queries/projects.server');
    const audit = await listShareAudit(await db());
    expect(audit.map((row) => [row.kind, row.actorEmail, row.subjectEmail ?? row.subjectGroupName, row.role])).toEqual(
      expect.arrayContaining([
        ['member_added', PEOPLE.owner, PEOPLE.user, 'use'],
        ['member_added', PEOPLE.owner, PEOPLE.editor, 'edit'],
        ['member_added', PEOPLE.editor, "Équipe 'data'", 'use'],
        ['member_removed', PEOPLE.owner, PEOPLE.user, 'use'],
        ['reader_added', PEOPLE.owner, PEOPLE.stranger, null],
        ['reader_removed', PEOPLE.owner, PEOPLE.stranger, null],
      ]),
    );
    // /admin lists them in words: who, what, with whom.
    const { renderToStaticMarkup } = await import('react-dom/server');
    const { ShareAudit } = await import('@/components/admin/share-audit.server');
    const listed = renderToStaticMarkup(await ShareAudit());
    expect(listed).toContain(`${PEOPLE.editor} · added to project “Ventes “Q3” — 数据\n2026”: group “Équipe &#x27;data&#x27;” (can use)`);
    expect(listed).toContain(`zoë.o&#x27;neil@example.com · shared conversation with ${PEOPLE.stranger} · conversation “untitled or deleted”`);
  });

  it('a reader reads the conversation through every route that reads one: a stranger gets the same 404 as an id that names nothing', async () => {
    const { messages } = await import('@/lib/db/schema.server');
    const { putConversationBlob } = await import('@/lib/db/queries/blobs.server');
    const { getBlobStore } = await import('@/lib/files/app-blob-store.server');
    const question = 'Quel est le total « 数据 » "quoted"?';
    await (await db()).insert(messages).values({ conversationId: conversation, id: 'm1', seq: 0, role: 'user', parts: [{ type: 'text', text: question }] });
    const bytes = new TextEncoder().encode('customer,amount\nZoë "Q",10\n');
    const sha = await putConversationBlob(await db(), await getBlobStore(), { userId: ids.owner, conversationId: conversation, quota: { conversationBytes: 1e9, guestBytes: 1e9 } }, { bytes, mediaType: 'text/csv' });
    as('owner');
    const shared = await call({ method: 'POST', path: `/api/conversations/${conversation}/readers`, body: { email: PEOPLE.user } });
    expect(shared.status).toBe(201);
    const reads = (id: string): Call[] => [
      { method: 'GET', path: `/api/conversations/${id}` },
      { method: 'GET', path: `/api/conversations/${id}/notebook` },
      { method: 'GET', path: `/api/conversations/${id}/script` },
      { method: 'GET', path: `/api/conversations/${id}/bundle` },
      { method: 'GET', path: `/api/chat/${id}/stream` },
      { method: 'GET', path: `/api/blobs/${sha}?conversation=${id}` },
    ];
    for (const who of ['owner', 'user'] as const) {
      as(who);
      for (const request of reads(conversation)) expect([who, request.path, (await call(request)).status]).toEqual([who, request.path, request.path.includes('/stream') ? 204 : 200]);
      expect(JSON.stringify((await call(reads(conversation)[0]!)).json)).toContain(JSON.stringify(question).slice(1, -1));
      expect((await call(reads(conversation)[5]!)).text).toBe('customer,amount\nZoë "Q",10\n');
    }
    // Its page (/c/<id>) reads it for the reader: the messages and the uploaded files, never a file kept on its author's device.
    const { conversationFiles } = await import('@/lib/db/schema.server');
    await (await db()).insert(conversationFiles).values([
      { conversationId: conversation, name: 'ventes "Q3".csv', sha256: sha, location: 'account', blobSha256: sha, mediaType: 'text/csv', size: bytes.byteLength },
      { conversationId: conversation, name: 'kept on my laptop.csv', sha256: 'd'.repeat(64), location: 'device', blobSha256: null, mediaType: 'text/csv', size: 10 },
    ]);
    const { loadReadableConversation } = await import('@/lib/chat/load-conversation.server');
    const page = await loadReadableConversation({ userId: ids.user, kind: 'account' }, conversation);
    expect(JSON.stringify(page?.messages)).toContain(JSON.stringify(question).slice(1, -1));
    expect(page?.files.map((file) => file.name)).toEqual(['ventes "Q3".csv']);
    for (const who of [{ userId: ids.stranger, kind: 'account' as const }, { userId: guestId, kind: 'guest' as const }, null]) expect(await loadReadableConversation(who, conversation)).toBeNull();
    // A reader may not change, delete or publish it: 403 in words, as they know it exists.
    as('user');
    for (const request of [
      { method: 'PATCH', path: `/api/conversations/${conversation}`, body: { title: 'mine now' } },
      { method: 'DELETE', path: `/api/conversations/${conversation}` },
      { method: 'POST', path: `/api/conversations/${conversation}/share` },
      { method: 'DELETE', path: `/api/conversations/${conversation}/share` },
    ] as Call[]) {
      expect([request.method, request.path, (await call(request)).status]).toEqual([request.method, request.path, 403]);
    }
    // They continue in a copy of their own: its messages and the files they could read (never one
    // kept on its author's device), theirs to change and to read their files through; nobody else's.
    const copied = await call({ method: 'POST', path: `/api/conversations/${conversation}/fork` });
    expect([copied.status, copied.json]).toEqual([201, { id: expect.stringMatching(/^[0-9a-f-]{36}$/), path: `/c/${copied.json?.id as string}` }]);
    const copy = copied.json!.id as string;
    expect(JSON.stringify((await call({ method: 'GET', path: `/api/conversations/${copy}` })).json)).toContain(JSON.stringify(question).slice(1, -1));
    expect((await call({ method: 'GET', path: `/api/blobs/${sha}?conversation=${copy}` })).text).toBe('customer,amount\nZoë "Q",10\n');
    const { getConversationById } = await import('@/lib/db/queries/conversations.server');
    const { listFiles } = await import('@/lib/files/file-queries.server');
    expect(await getConversationById(await db(), copy)).toMatchObject({ ownerId: ids.user, projectId: null });
    expect((await listFiles(await db(), copy)).map((file) => file.name)).toEqual(['ventes "Q3".csv']);
    expect((await call({ method: 'PATCH', path: `/api/conversations/${copy}`, body: { title: 'mine now' } })).status).toBe(200);
    as('owner');
    expect((await call({ method: 'GET', path: `/api/conversations/${copy}` })).status).toBe(404);
    expect(JSON.stringify((await call({ method: 'GET', path: `/api/conversations/${conversation}` })).json)).not.toContain('mine now');
    for (const who of ['stranger', 'guest', 'grouped'] as const) {
      as(who);
      for (const request of [...reads(conversation), ...reads(crypto.randomUUID()), { method: 'POST', path: `/api/conversations/${conversation}/share` } as Call, { method: 'POST', path: `/api/conversations/${conversation}/fork` } as Call, { method: 'POST', path: '/api/conversations/not-a-uuid/fork' } as Call]) {
        expect([who, request.path, (await call(request)).status]).toEqual([who, request.path, 404]);
      }
    }
    // Shared no more: the reader is a stranger again.
    as('owner');
    expect((await call({ method: 'DELETE', path: `/api/conversations/${conversation}/readers/${shared.json!.id}` })).status).toBe(204);
    as('user');
    for (const request of [...reads(conversation), { method: 'POST', path: `/api/conversations/${conversation}/fork` } as Call]) expect([request.path, (await call(request)).status]).toEqual([request.path, 404]);
  });

  it('share links: for anyone, or for signed-in people only (no one and guests are sent to sign in, and back); refused in words and gone while the operator turned them off', async () => {
    const { conversations, messages } = await import('@/lib/db/schema.server');
    const talk = crypto.randomUUID();
    await (await db()).insert(conversations).values({ id: talk, ownerId: ids.owner, title: 'Ventes « Q3 » "net"' });
    await (await db()).insert(messages).values({ conversationId: talk, id: 'm1', seq: 0, role: 'user', parts: [{ type: 'text', text: 'Quel total ?' }] });
    const sharePage = (await import('@/app/s/[shareId]/page')).default;
    const openPage = async (id: string) => sharePage({ params: Promise.resolve({ shareId: id }) }).then(
      () => 'shown',
      (error: unknown) => String((error as { digest?: string }).digest ?? error),
    );
    as('owner');
    const made = await call({ method: 'POST', path: `/api/conversations/${talk}/share` });
    expect(made.json).toMatchObject({ audience: 'anyone' });
    const link = made.json!.id as string;
    expect((await call({ method: 'GET', path: `/api/conversations/${talk}/share` })).json).toEqual({ links: 'on', link: { id: link, path: `/s/${link}`, audience: 'anyone' } });
    const opens = async (who: Person | 'guest' | null) => {
      as(who);
      return [(await call({ method: 'GET', path: `/api/shares/${link}/notebook` })).status, (await call({ method: 'GET', path: `/api/shares/${link}/script` })).status, (await openPage(link)).split(';').slice(0, 3).join(';')];
    };
    for (const who of [null, 'guest', 'stranger'] as const) expect([who, ...(await opens(who))]).toEqual([who, 200, 200, 'shown']);

    // For signed-in people only: the same link, narrowed; no one and guests are sent to sign in and back.
    as('owner');
    expect((await call({ method: 'POST', path: `/api/conversations/${talk}/share`, body: { audience: 'signed_in' } })).json).toMatchObject({ id: link, audience: 'signed_in' });
    expect([...(await opens('stranger'))]).toEqual([200, 200, 'shown']);
    for (const who of [null, 'guest'] as const) {
      expect([who, ...(await opens(who))]).toEqual([who, 401, 401, `NEXT_REDIRECT;replace;/sign-in?next=%2Fs%2F${link}`]);
      expect((await call({ method: 'GET', path: `/api/shares/${link}/notebook` })).json?.error).toMatch(/opens only for people signed in to this Runpad/);
    }
    as('guest');
    expect((await call({ method: 'POST', path: `/api/shares/${link}/fork` })).status).toBe(401);
    as('owner');
    for (const body of [{ audience: 'everyone' }, { audience: 'anyone', owner: ids.stranger }, { audience: "signed_in'; --" }]) {
      expect([body, (await call({ method: 'POST', path: `/api/conversations/${talk}/share`, body })).status]).toEqual([body, 400]);
    }
    // Another person's conversation cannot be shared by a claimed id.
    as('stranger');
    expect((await call({ method: 'POST', path: `/api/conversations/${talk}/share`, body: { audience: 'anyone' } })).status).toBe(404);

    try {
      // Links only for signed-in people: one for anyone is refused in words; the existing one opens for accounts only.
      links.setting = 'signed-in';
      as('owner');
      const wide = await call({ method: 'POST', path: `/api/conversations/${talk}/share`, body: { audience: 'anyone' } });
      expect([wide.status, wide.json?.error]).toEqual([403, expect.stringMatching(/RUNPAD_PUBLIC_SHARES=signed-in/)]);
      expect((await call({ method: 'POST', path: `/api/conversations/${talk}/share` })).json).toMatchObject({ id: link, audience: 'signed_in' });

      // Links off: none is made (in words naming the setting), and the existing one answers 404 to everyone.
      links.setting = 'off';
      as('owner');
      const refused = await call({ method: 'POST', path: `/api/conversations/${talk}/share`, body: { audience: 'signed_in' } });
      expect([refused.status, refused.json?.error]).toEqual([403, expect.stringMatching(/RUNPAD_PUBLIC_SHARES=off/)]);
      expect((await call({ method: 'GET', path: `/api/conversations/${talk}/share` })).json).toEqual({ links: 'off', link: null });
      for (const who of [null, 'guest', 'stranger', 'owner'] as const) expect([who, ...(await opens(who))]).toEqual([who, 404, 404, 'NEXT_HTTP_ERROR_FALLBACK;404']);
    } finally {
      links.setting = undefined;
    }
    // On again: the link, never revoked, opens again.
    expect([...(await opens('stranger'))]).toEqual([200, 200, 'shown']);
  });

  it('groups: admins make, rename and fill them by email, take members out (reading through the group ends at once) and delete them; names of every script and quoting, one line', async () => {
    const { conversations } = await import('@/lib/db/schema.server');
    const talk = crypto.randomUUID();
    await (await db()).insert(conversations).values({ id: talk, ownerId: ids.owner, title: 'Pour le groupe' });
    const NAME = `  Ventes "Q3" ‘α’ «β» 数据 'd' \`x\`  `;
    as('admin');
    for (const name of ['', '   ', 'two\nlines', 'tab\there', 'x'.repeat(201), 42]) {
      expect([name, (await call({ method: 'POST', path: '/api/admin/groups', body: { name, emails: [] } })).status]).toEqual([name, 400]);
    }
    const made = await call({ method: 'POST', path: '/api/admin/groups', body: { name: NAME, emails: [PEOPLE.user.toUpperCase(), ` ${PEOPLE.grouped} `] } });
    expect(made.status).toBe(201);
    const group = made.json!.id as string;
    // Not an admin: refused, whatever id it claims; no one: sign in first.
    for (const who of ['owner', 'user', 'guest'] as const) {
      as(who);
      for (const request of [
        { method: 'PATCH', path: `/api/admin/groups/${group}`, body: { name: 'mine' } },
        { method: 'DELETE', path: `/api/admin/groups/${group}` },
        { method: 'DELETE', path: `/api/admin/groups/${group}/members/${ids.user}` },
        { method: 'GET', path: '/api/admin/groups' },
      ] as Call[]) {
        expect([who, request.method, request.path, (await call(request)).status]).toEqual([who, request.method, request.path, who === 'guest' ? 401 : 403]);
      }
    }
    // Whoever has an account sees the groups' names to share with; a guest does not.
    as('user');
    expect((await call({ method: 'GET', path: '/api/groups' })).json?.groups).toEqual(expect.arrayContaining([{ id: group, name: NAME.trim() }]));
    as('guest');
    expect((await call({ method: 'GET', path: '/api/groups' })).status).toBe(401);

    as('admin');
    const unknown = await call({ method: 'PATCH', path: `/api/admin/groups/${group}`, body: { name: 'Renamed', emails: [PEOPLE.editor, "o'ghost@example.com"] } });
    expect([unknown.status, unknown.json?.error]).toEqual([404, expect.stringContaining("o'ghost@example.com")]);
    const renamed = await call({ method: 'PATCH', path: `/api/admin/groups/${group}`, body: { name: 'Équipe “renamed” 团队', emails: [PEOPLE.editor.toUpperCase()] } });
    expect(renamed.json).toEqual({ id: group, name: 'Équipe “renamed” 团队' });
    const listed = (await call({ method: 'GET', path: '/api/admin/groups' })).json!.groups as Array<{ id: string; members: Array<{ email: string; source: string }> }>;
    expect(listed.find((entry) => entry.id === group)?.members.map((member) => member.email).sort()).toEqual([PEOPLE.editor, PEOPLE.grouped, PEOPLE.user].sort());
    for (const request of [
      { method: 'PATCH', path: `/api/admin/groups/${crypto.randomUUID()}`, body: { name: 'x' } },
      { method: 'PATCH', path: '/api/admin/groups/not-a-uuid', body: { name: 'x' } },
      { method: 'DELETE', path: `/api/admin/groups/${crypto.randomUUID()}` },
      { method: 'DELETE', path: `/api/admin/groups/${group}/members/${ids.stranger}` },
      { method: 'DELETE', path: `/api/admin/groups/${group}/members/not-a-uuid` },
    ] as Call[]) {
      expect([request.method, request.path, (await call(request)).status]).toEqual([request.method, request.path, 404]);
    }

    // Shared with the group: its members read it; taken out, a member reads it no more, at their next request.
    as('owner');
    expect((await call({ method: 'POST', path: `/api/conversations/${talk}/readers`, body: { groupId: group } })).status).toBe(201);
    as('user');
    expect((await call({ method: 'GET', path: `/api/conversations/${talk}` })).status).toBe(200);
    as('admin');
    const out = await call({ method: 'DELETE', path: `/api/admin/groups/${group}/members/${ids.user}` });
    expect(out.status).toBe(204);
    as('user');
    expect((await call({ method: 'GET', path: `/api/conversations/${talk}` })).status).toBe(404);
    as('editor');
    expect((await call({ method: 'GET', path: `/api/conversations/${talk}` })).status).toBe(200);
    // Deleted, the group grants nothing, and the reader's row goes with it.
    as('admin');
    expect((await call({ method: 'DELETE', path: `/api/admin/groups/${group}` })).status).toBe(204);
    as('editor');
    expect((await call({ method: 'GET', path: `/api/conversations/${talk}` })).status).toBe(404);
    as('owner');
    expect((await call({ method: 'GET', path: `/api/conversations/${talk}/readers` })).json).toEqual({ readers: [] });
  });

  it('the project’s page and its New chat: a member sees its instructions and members and starts a chat in it; anyone else gets “not found” and an ordinary new chat', async () => {
    const { renderToStaticMarkup } = await import('react-dom/server');
    const projectPage = (await import('@/app/p/[id]/page')).default;
    const newChat = (await import('@/app/page')).default;
    const open = async (id: string) => renderToStaticMarkup((await projectPage({ params: Promise.resolve({ id }) })) as React.ReactElement);
    /** The Chat element the new-chat page renders, and the project it starts in. */
    const chatProject = async (project: string) => {
      const tree = (await newChat({ searchParams: Promise.resolve({ project }) })) as React.ReactElement<{ children: React.ReactElement<{ projectId?: string }>[] }>;
      return tree.props.children.find((child) => child && typeof child === 'object' && 'projectId' in child.props)?.props.projectId;
    };
    as('grouped');
    const html = await open(project);
    expect(html).toContain('Use metric units.');
    expect(html).toContain('Can use');
    expect(html).toContain('Équipe &#x27;data&#x27;');
    expect(html).toContain(`href="/?project=${project}"`);
    // A member who can use it sees its datasets, and no control that changes the project.
    expect(html).toContain('Datasets');
    expect(html).not.toContain('Edit instructions');
    expect(html).not.toContain('Add a dataset');
    as('editor');
    expect(await open(project)).toContain('Edit instructions');
    as('grouped');
    expect(await chatProject(project)).toBe(project);
    for (const who of ['stranger', 'guest', 'user'] as const) {
      as(who);
      await expect(open(project)).rejects.toThrow(/NEXT_HTTP_ERROR_FALLBACK;404|NEXT_NOT_FOUND/);
      expect(await chatProject(project)).toBeUndefined();
    }
    as('grouped');
    await expect(open('not-a-uuid')).rejects.toThrow(/NEXT_HTTP_ERROR_FALLBACK;404|NEXT_NOT_FOUND/);
    await expect(open(crypto.randomUUID())).rejects.toThrow(/NEXT_HTTP_ERROR_FALLBACK;404|NEXT_NOT_FOUND/);
  });

  it('the project’s dataset library: its members read an upload’s bytes by id and by hash, see a device-kept one by name, size, columns and hash; those who can edit change it; anyone else gets the same 404; a removed member at once', async () => {
    const bytes = new TextEncoder().encode('région,montant\n"Île-de-France ""Nord""",12\n数据,3\n');
    const csv = (name: string): Call => ({ method: 'POST', path: `/api/projects/${project}/files`, raw: bytes, headers: { 'x-file-name': encodeURIComponent(name), 'content-type': 'application/octet-stream' } });
    as('owner');
    const user = await call({ method: 'POST', path: `/api/projects/${project}/members`, body: { email: PEOPLE.user, role: 'use' } });
    const uploaded = await call(csv('ventes «Q3» "v2".csv'));
    expect([uploaded.status, uploaded.json]).toEqual([201, expect.objectContaining({ name: 'ventes «Q3» _v2_.csv', size: bytes.byteLength, mediaType: 'text/csv', location: 'account' })]);
    const [fileId, sha] = [uploaded.json!.id as string, uploaded.json!.sha256 as string];
    // The browser's reader tells the columns it found; a header row's names are kept.
    expect((await call({ method: 'PATCH', path: `/api/projects/${project}/files/${fileId}`, body: { columns: [{ name: 'région', type: 'VARCHAR' }, { name: 'montant', type: 'BIGINT' }], header: true, rows: 2 } })).json).toMatchObject({ columns: [{ name: 'région' }, { name: 'montant' }], rows: 2 });
    const keptSha = 'e'.repeat(64);
    const kept = await call({ method: 'POST', path: `/api/projects/${project}/device-files`, body: { name: 'clients.parquet', size: 123_456, sha256: keptSha, columns: [{ name: 'Zoë "first row"', type: 'VARCHAR' }], header: false } });
    // Without a header row its first row is data: the reader's own names are stored, never a value.
    expect([kept.status, kept.json]).toEqual([201, expect.objectContaining({ name: 'clients.parquet', location: 'device', columns: [{ name: 'column0', type: 'VARCHAR' }] })]);
    expect(JSON.stringify(kept.json)).not.toContain('first row');
    const keptId = kept.json!.id as string;
    // The same name again gets a suffix, as a conversation's upload does.
    expect((await call(csv('ventes «Q3» "v2".csv'))).json).toMatchObject({ name: 'ventes «Q3» _v2_ (1).csv' });

    const reads = (fileIds: string[]): Call[] => [{ method: 'GET', path: `/api/projects/${project}/files` }, ...fileIds.map((id) => ({ method: 'GET', path: `/api/projects/${project}/files/${id}` }) as Call), { method: 'GET', path: `/api/blobs/${sha}?project=${project}` }];
    const changes: Call[] = [
      csv('mine.csv'),
      { method: 'POST', path: `/api/projects/${project}/device-files`, body: { name: 'mine.csv', size: 1, sha256: 'f'.repeat(64) } },
      { method: 'PATCH', path: `/api/projects/${project}/files/${fileId}`, body: { columns: [] } },
      { method: 'DELETE', path: `/api/projects/${project}/files/${fileId}` },
    ];
    for (const who of ['user', 'grouped'] as const) {
      as(who);
      const listed = await call(reads([])[0]!);
      expect(listed.json).toEqual({ files: expect.arrayContaining([expect.objectContaining({ id: keptId, name: 'clients.parquet', size: 123_456, sha256: keptSha, location: 'device', columns: [{ name: 'column0', type: 'VARCHAR' }] })]) });
      // By id: a redirect to the bytes by hash with the project named; by hash: the bytes.
      const byId = await call(reads([fileId])[1]!);
      expect([byId.status]).toEqual([303]);
      const byHash = await call(reads([])[1]!);
      expect([byHash.status, byHash.text]).toEqual([200, new TextDecoder().decode(bytes)]);
      // The browser asks again each time it uses them (a 304 while the membership holds): nothing it kept outlives a removal.
      expect(byHash.headers.get('cache-control')).toMatch(/no-cache/);
      // A device-kept dataset has no bytes here.
      expect((await call({ method: 'GET', path: `/api/projects/${project}/files/${keptId}` })).status).toBe(404);
      // Can use: no changes, 403 in words.
      for (const request of changes) expect([who, request.method, request.path, (await call(request)).status]).toEqual([who, request.method, request.path, 403]);
    }
    // Anyone else, and an id that names nothing: the same 404 for the list, the file by id and by hash (with or without the project), and every change.
    for (const who of ['stranger', 'guest'] as const) {
      as(who);
      for (const request of [...reads([fileId, keptId, crypto.randomUUID(), 'not-a-uuid']), { method: 'GET', path: `/api/blobs/${sha}` } as Call, { method: 'GET', path: `/api/blobs/${sha}?project=${crypto.randomUUID()}` } as Call, ...changes]) {
        const answer = await call(request);
        expect([who, request.method, request.path, answer.status, answer.json?.error]).toEqual([who, request.method, request.path, 404, 'Not found.']);
      }
    }
    // Can edit: adds, describes and removes; the bytes go when nothing holds them any more.
    as('editor');
    const added = await call(csv('editor.csv'));
    expect(added.status).toBe(201);
    expect((await call({ method: 'DELETE', path: `/api/projects/${project}/files/${added.json!.id as string}` })).status).toBe(204);
    // Removed, a member gets the same 404 as a stranger on their next request.
    as('owner');
    expect((await call({ method: 'DELETE', path: `/api/projects/${project}/members/${user.json!.id as string}` })).status).toBe(204);
    as('user');
    for (const request of reads([fileId])) expect([request.path, (await call(request)).status]).toEqual([request.path, 404]);
    const { projectDatasetsFor } = await import('@/lib/chat/project-datasets.server');
    expect(await projectDatasetsFor(await db(), { userId: ids.user, kind: 'account' }, project)).toEqual([]);
    expect((await projectDatasetsFor(await db(), { userId: ids.grouped, kind: 'account' }, project)).map((file) => file.name)).toEqual(['ventes «Q3» _v2_.csv', 'clients.parquet', 'ventes «Q3» _v2_ (1).csv']);
    // An upload counts against its uploader's storage and the project's.
    const { projects, users } = await import('@/lib/db/schema.server');
    const { eq } = await import('drizzle-orm');
    expect((await (await db()).select({ stored: projects.storedBytes }).from(projects).where(eq(projects.id, project)))[0]!.stored).toBe(2 * bytes.byteLength);
    expect((await (await db()).select({ stored: users.storedBytes }).from(users).where(eq(users.id, ids.editor)))[0]!.stored).toBe(0);
  });

  it('bodies are checked: the origin, the type, the shape', async () => {
    as('owner');
    const bad: Array<[Call, number]> = [
      [{ method: 'POST', path: '/api/projects', body: { name: 'x' }, headers: { origin: 'https://evil.example' } }, 403],
      [{ method: 'POST', path: '/api/projects', body: { name: 'x' }, headers: { 'content-type': 'text/plain' } }, 415],
      [{ method: 'POST', path: '/api/projects', body: { name: '   ' } }, 400],
      [{ method: 'POST', path: '/api/projects', body: { name: 'x', modelSees: 'everything' } }, 400],
      [{ method: 'POST', path: '/api/projects', body: { name: 'x', owner: ids.stranger } }, 400],
      [{ method: 'POST', path: `/api/projects/${project}/members`, body: { email: PEOPLE.user, role: 'owner' } }, 400],
      [{ method: 'POST', path: `/api/projects/${project}/members`, body: { email: PEOPLE.user, groupId: crypto.randomUUID(), role: 'use' } }, 400],
      [{ method: 'POST', path: `/api/projects/${project}/members`, body: { email: PEOPLE.owner, role: 'use' } }, 400],
      [{ method: 'POST', path: `/api/conversations/${conversation}/readers`, body: { email: 'a\nb' } }, 400],
      [{ method: 'PATCH', path: `/api/projects/${project}`, body: { instructions: 'x'.repeat(20_001) } }, 400],
    ];
    for (const [request, status] of bad) expect([request.method, request.path, request.body, (await call(request)).status]).toEqual([request.method, request.path, request.body, status]);
    expect((await call({ method: 'DELETE', path: `/api/projects/${project}` })).status).toBe(204);
    expect((await call({ method: 'GET', path: `/api/projects/${project}` })).status).toBe(404);
  });
});
