/**
 * A hash is a name, never a key. One person's stored bytes leave the server only to someone who
 * holds an uploaded copy of them (a reference their own upload, run output or link made) or
 * through a share that recorded such a copy; a file kept on a device is never read from the blob
 * store. An attacker account and an open-mode guest each claim the victim's files by their SHA-256
 * every way a hash can be written (a device file's record, a link to "my datasets", a move to the
 * account, a figure in a run's output, a share and a fork of it, a fork of the victim's share, a
 * dataset of their own project used by their conversation) and
 * then call EVERY route under app/api, found by walking the folder: every GET with each of their
 * ids and the victim's hashes, every other method with a body that names the victim's hash, and
 * the chat route in a conversation that shows the victim's figure (a fake provider records what
 * the model is sent). No answer, and nothing sent to the model, may hold the victim's bytes (as
 * they are, in base64, inside a zip). A route added later is
 * walked too; a method other than GET must be listed below with what it does, or this test fails.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '@/e2e/fixtures/fake-openai/server.mjs';
import type { Identity } from '@/lib/auth/current-user.server';
import { AppError } from '@/lib/errors.server';

const ORIGIN = 'http://localhost:3997';
let identity: { ok: true; identity: Identity } | { ok: false; refusal: AppError } = { ok: false, refusal: new AppError('session:sign_in_required') };
vi.mock('@/lib/auth/current-user.server', () => ({ sessionGuestId: async () => null, resolveIdentity: async () => identity }));

/** An instance in open mode on an embedded database, its files under a fresh directory. */
const ENV: Record<string, string> = {
  DATABASE_URL: '',
  S3_BUCKET: '',
  REDIS_URL: '',
  AUTH_SECRET: 'hash-is-a-name-secret-hash-is-a-name-0123',
  RUNPAD_PUBLIC_ORIGIN: ORIGIN,
  RUNPAD_ACCESS: 'open',
  RUNPAD_SMTP_URL: '',
  RUNPAD_LOG_LEVEL: 'silent',
};
/** The model the chat route asks: a fake provider that records every request it receives. */
let model: FakeOpenAI;
beforeAll(async () => {
  model = await startFakeOpenAI();
  const models = JSON.stringify([{ id: 'fake', provider: 'openai-compatible', model: 'fake-model', baseURL: model.url }]);
  for (const [name, value] of Object.entries({ ...ENV, RUNPAD_MODELS: models, OPENAI_API_KEY: 'test-key', RUNPAD_TOKENS_PER_DAY: '', RUNPAD_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-hash-name-')) })) vi.stubEnv(name, value);
});
afterAll(async () => model.close());

/** POST /api/chat with a new user message in this conversation, read to its end; and every request the model received for it. */
async function chatIn(conversationId: string): Promise<{ answer: Response; sentToModel: string }> {
  const trigger = `trigger-${crypto.randomUUID()}`;
  model.addScenarios([{ trigger, steps: [{ text: 'Here it is.' }], unstreamed: { text: 'A title' } }]);
  const answer = await call('chat', 'POST', {}, { body: JSON.stringify({ id: conversationId, modelId: 'fake', message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: `${trigger} show me the figure again` }] } }), headers: { 'content-type': 'application/json' } });
  const text = await answer.clone().text();
  const sent = model.requests().filter((request) => JSON.stringify(request.body).includes(trigger));
  return { answer: new Response(text, { status: answer.status }), sentToModel: JSON.stringify(sent.map((request) => request.body)) };
}

const API = path.resolve(import.meta.dirname, '../../app/api');
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Handler = (request: Request, context?: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/** Every route file under app/api, as its URL pattern (`conversations/[id]/bundle`). */
function routePatterns(dir = API, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return routePatterns(path.join(dir, entry.name), prefix ? `${prefix}/${entry.name}` : entry.name);
    return entry.name === 'route.ts' ? [prefix] : [];
  });
}

/**
 * Every method other than GET, and what it answers: none returns stored bytes. Each is called
 * below anyway, as the attacker, with a body naming the victim's hash (DELETE too, last).
 */
const WRITES: Record<string, string> = {
  'account DELETE': 'deletes the person; answers 204',
  'account/sessions POST': 'signs the person out elsewhere; answers a count',
  'admin/accounts/[id]/password-reset POST': 'admins only: a reset link',
  'admin/accounts/[id] PATCH': 'admins only: approval and role',
  'admin/accounts/[id] DELETE': 'admins only',
  'admin/invitations POST': 'admins only: an invitation link',
  'admin/groups POST': 'admins only: a group of accounts by email',
  'admin/groups/[id] PATCH': 'admins only: a group’s name and members added by email',
  'admin/groups/[id] DELETE': 'admins only',
  'admin/groups/[id]/members/[userId] DELETE': 'admins only: takes an account out of a group',
  'admin/invitations/[id] DELETE': 'admins only',
  'admin/people/[id] PATCH': 'admins only: blocks and limits',
  'auth/[...all] POST': 'better-auth: sign-in, sign-out, passkeys',
  'chat/[id]/stop POST': 'stops an answer',
  'chat POST': 'the model’s answer (probed below: what the model is sent of a figure the conversation shows)',
  'conversations/[id]/cells/[toolCallId] PUT': 'stores a run’s result the page sends',
  'conversations/[id]/device-files POST': 'records a file kept on the device: a name, a size and a hash, no bytes (the claim below)',
  'conversations/[id]/files POST': 'stores the bytes sent with it',
  'conversations/[id]/files DELETE': 'removes a file',
  'conversations/[id]/files PATCH': 'moves a file between device and account (the claim below)',
  'conversations/[id]/files/link POST': 'adds a file of the person’s account (the claim below)',
  'conversations/[id]/outputs POST': 'stores the bytes a run wrote',
  'conversations/[id] PATCH': 'renames',
  'conversations/[id]/readers POST': 'shares the conversation to a person or a group (names an account, no bytes)',
  'conversations/[id]/readers/[readerId] DELETE': 'ends a reader’s access',
  'conversations/[id] DELETE': 'deletes the conversation',
  'conversations/[id]/runs/[toolCallId]/progress PUT': 'a run’s progress',
  'conversations/[id]/share POST': 'makes a share link (the claim below)',
  'conversations/[id]/share DELETE': 'revokes the link',
  'projects POST': 'makes a project (a name and instructions, no bytes)',
  'projects/[id] PATCH': 'changes a project’s name, instructions, model or policy',
  'projects/[id] DELETE': 'deletes a project',
  'projects/[id]/members POST': 'adds a member by email or group, or invites an email no account has (no bytes)',
  'projects/[id]/members/[memberId] DELETE': 'removes a member',
  'projects/[id]/files POST': 'stores the bytes sent with it as a project’s dataset (its owner and editors)',
  'projects/[id]/files/[fileId] PATCH': 'a project dataset’s columns (names and types, no bytes)',
  'projects/[id]/files/[fileId] DELETE': 'removes a project’s dataset',
  'projects/[id]/device-files POST': 'lists a dataset kept on a member’s device in a project: a name, a size and a hash, no bytes (the claim below)',
  'shares/[id]/fork POST': 'copies a share into the person’s own conversation (the claim below)',
  'conversations/[id]/fork POST': 'copies a conversation shared to the person into their own; anyone who may not read it gets 404',
};

async function handlers(pattern: string): Promise<Array<[Method, Handler]>> {
  const mod = (await import(path.join(API, pattern, 'route.ts'))) as Record<string, unknown>;
  return (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).flatMap((method) => (typeof mod[method] === 'function' ? [[method, mod[method] as Handler] as [Method, Handler]] : []));
}

async function call(pattern: string, method: Method, params: Record<string, string | string[]>, options: { search?: string; body?: BodyInit; headers?: Record<string, string> } = {}): Promise<Response> {
  const handler = (await handlers(pattern)).find(([m]) => m === method)?.[1];
  if (!handler) throw new Error(`${pattern} has no ${method}`);
  const url = `${ORIGIN}/api/${pattern.replace(/\[\.\.\.(\w+)\]|\[(\w+)\]/g, (_, rest: string, one: string) => (rest ? [params[rest]].flat().join('/') : String(params[one])))}${options.search ?? ''}`;
  const request = new Request(url, { method, headers: { origin: ORIGIN, ...options.headers }, body: options.body, ...(options.body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit);
  return handler(request, { params: Promise.resolve(params) });
}

function person(userId: string, kind: 'guest' | 'account'): Identity {
  return { userId, kind, email: kind === 'account' ? `${userId.slice(0, 8)}@example.com` : null, name: null, isAdmin: false, sessionId: null, person: { id: userId } as Identity['person'], address: '203.0.113.7' };
}
const as = (who: Identity) => (identity = { ok: true, identity: who });

/** The victim's bytes: a CSV with quotes of every kind, non-Latin letters and newlines, and a figure. */
const secretToken = `victim-${crypto.randomUUID()}`;
const secretCsv = new TextEncoder().encode(`name,note\n"O'Brien","he said \u201chi\u201d \`x\`"\n名前,${secretToken}\r\nمرحبا,"a\nb"\n`);
const figureToken = `figure-${crypto.randomUUID()}`;
const figurePng = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new TextEncoder().encode(figureToken)]);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** What of the victim's an answer's bytes hold (as they are, in base64, in any zip entry). */
function victimsIn(bytes: Uint8Array): string[] {
  const texts = [Buffer.from(bytes).toString('latin1')];
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) for (const entry of Object.values(unzipSync(bytes))) texts.push(Buffer.from(entry).toString('latin1'));
  const wanted: Record<string, string> = {
    'the secret file': Buffer.from(secretToken).toString('latin1'),
    'the secret file in base64': b64(secretCsv),
    'the figure': figureToken,
    'the figure in base64': b64(figurePng),
  };
  return Object.entries(wanted).flatMap(([what, needle]) => (texts.some((text) => text.includes(needle)) ? [what] : []));
}

async function bodyOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

/** An assistant message whose run displayed this figure: what a page sends after a run. */
function runShowing(sha256: string) {
  return {
    id: crypto.randomUUID(),
    role: 'assistant',
    parts: [
      { type: 'tool-python', toolCallId: `call-${crypto.randomUUID()}`, state: 'output-available', input: { code: 'show()' }, output: { status: 'ok', durationMs: 1, outputs: [{ output_type: 'display_data', data: { 'image/png': `blob:${sha256}`, 'text/plain': '<Figure>' }, metadata: {} }] } },
    ],
  };
}

const victim = person(crypto.randomUUID(), 'account');
const victimFiles = crypto.randomUUID();
const victimKept = crypto.randomUUID();
const victimKeptAgain = crypto.randomUUID();
let victimShareAgain = '';
let secretSha = '';
let figureSha = '';
let victimShare = '';
/** The victim's project: the secret file uploaded to it, and kept on the victim's device. */
let victimProject = '';
const victimProjectFiles: string[] = [];
/** The victim's conversation in that project, which used its datasets (written after they were added). */
const victimProjectConversation = crypto.randomUUID();

describe('a hash is a name, never a key', () => {
  beforeAll(async () => {
    const { getDb } = await import('@/lib/db/client.server');
    const { ensureUser } = await import('@/lib/db/queries/users.server');
    const { upsertMessage } = await import('@/lib/db/queries/messages.server');
    await ensureUser(await getDb(), victim.userId);
    as(victim);
    // The victim uploads the file in one conversation, shows a figure there, and keeps the same file on the device in another, which is shared.
    const uploaded = await call('conversations/[id]/files', 'POST', { id: victimFiles }, { body: secretCsv, headers: { 'x-file-name': encodeURIComponent('secret.csv') } });
    expect(uploaded.status).toBe(201);
    secretSha = ((await uploaded.json()) as { sha256: string }).sha256;
    const figure = await call('conversations/[id]/outputs', 'POST', { id: victimFiles }, { body: figurePng, headers: { 'content-type': 'image/png' } });
    expect(figure.status).toBe(201);
    figureSha = ((await figure.json()) as { sha256: string }).sha256;
    await upsertMessage(await getDb(), victim.userId, victimFiles, runShowing(figureSha));
    for (const id of [victimKept, victimKeptAgain]) {
      const kept = await call('conversations/[id]/device-files', 'POST', { id }, { body: JSON.stringify({ name: 'kept.csv', size: secretCsv.byteLength, sha256: secretSha }), headers: { 'content-type': 'application/json' } });
      expect(kept.status).toBe(201);
      await upsertMessage(await getDb(), victim.userId, id, { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'Look at kept.csv' }], metadata: { files: [{ name: 'kept.csv', size: secretCsv.byteLength, mediaType: 'text/csv', sha256: secretSha, location: 'device' }] } });
    }
    const project = await call('projects', 'POST', {}, { body: JSON.stringify({ name: 'Victim’s project', instructions: 'secret work' }), headers: { 'content-type': 'application/json' } });
    expect(project.status).toBe(201);
    victimProject = ((await project.json()) as { id: string }).id;
    const inProject = await call('projects/[id]/files', 'POST', { id: victimProject }, { body: secretCsv, headers: { 'x-file-name': encodeURIComponent('secret.csv') } });
    expect(inProject.status).toBe(201);
    const keptInProject = await call('projects/[id]/device-files', 'POST', { id: victimProject }, { body: JSON.stringify({ name: 'kept.csv', size: secretCsv.byteLength, sha256: secretSha }), headers: { 'content-type': 'application/json' } });
    expect(keptInProject.status).toBe(201);
    for (const answer of [inProject, keptInProject]) victimProjectFiles.push(((await answer.json()) as { id: string }).id);
    // The victim, a member, reads the project's upload by hash, by the dataset and through their conversation that used it (what the walk below looks for is there to find).
    expect(victimsIn(await bodyOf(await call('blobs/[sha]', 'GET', { sha: secretSha }, { search: `?project=${victimProject}` })))).toContain('the secret file');
    const { conversations: conversationRows } = await import('@/lib/db/schema.server');
    await (await getDb()).insert(conversationRows).values({ id: victimProjectConversation, ownerId: victim.userId, projectId: victimProject });
    await upsertMessage(await getDb(), victim.userId, victimProjectConversation, { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'Sum /data/secret.csv' }] });
    for (const search of [`?dataset=${victimProjectFiles[0]}`, `?conversation=${victimProjectConversation}`]) expect([search, victimsIn(await bodyOf(await call('blobs/[sha]', 'GET', { sha: secretSha }, { search })))]).toEqual([search, ['the secret file']]);
    const shared = await call('conversations/[id]/share', 'POST', { id: victimKept });
    expect(shared.status).toBe(200);
    victimShare = ((await shared.json()) as { id: string }).id;
    victimShareAgain = ((await (await call('conversations/[id]/share', 'POST', { id: victimKeptAgain })).json()) as { id: string }).id;

    // The victim's own downloads hold the bytes: what the walk below looks for is really there to find.
    const own = await bodyOf(await call('conversations/[id]/bundle', 'GET', { id: victimFiles }));
    expect(victimsIn(own)).toEqual(expect.arrayContaining(['the secret file', 'the figure in base64']));
    expect(victimsIn(await bodyOf(await call('account/export', 'GET', {})))).toContain('the secret file');
    // The victim's own figure is sent to the model with the next message (what the chat probe below looks for).
    const ownChat = await chatIn(victimFiles);
    expect(ownChat.answer.status).toBe(200);
    expect(ownChat.sentToModel).toContain(b64(figurePng));
  });

  it('lists every method of every route other than GET with what it does', async () => {
    const found: string[] = [];
    for (const pattern of routePatterns()) for (const [method] of await handlers(pattern)) if (method !== 'GET') found.push(`${pattern} ${method}`);
    expect(found.filter((key) => !(key in WRITES)), 'a new method: say in WRITES what it answers (it is called below as well)').toEqual([]);
    expect(Object.keys(WRITES).filter((key) => !found.includes(key)), 'listed but gone').toEqual([]);
  });

  for (const kind of ['account', 'guest'] as const) {
    it(`an ${kind === 'account' ? 'attacker’s account' : 'open-mode guest'} that claims the victim’s hashes gets none of the victim’s bytes from any route`, async () => {
      const { getDb } = await import('@/lib/db/client.server');
      const { ensureUser } = await import('@/lib/db/queries/users.server');
      const { upsertMessage } = await import('@/lib/db/queries/messages.server');
      const attacker = person(crypto.randomUUID(), kind);
      await ensureUser(await getDb(), attacker.userId);
      as(attacker);
      const json = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } });

      // The claims: each way a hash can be written down.
      const claim = crypto.randomUUID();
      const claimed = await call('conversations/[id]/device-files', 'POST', { id: claim }, json({ name: 'secret.csv', size: secretCsv.byteLength, sha256: secretSha }));
      expect(claimed.status).toBe(201);
      await call('conversations/[id]/device-files', 'POST', { id: claim }, json({ name: 'figure.png', size: figurePng.byteLength, sha256: figureSha }));
      expect((await call('conversations/[id]/files/link', 'POST', { id: claim }, json({ sha256: secretSha, name: 'linked.csv' }))).status).toBe(404);
      expect((await call('conversations/[id]/files', 'PATCH', { id: claim }, json({ name: 'secret.csv', location: 'account' }))).status).toBe(409);
      await upsertMessage(await getDb(), attacker.userId, claim, runShowing(figureSha));
      const share = ((await (await call('conversations/[id]/share', 'POST', { id: claim })).json()) as { id: string }).id;
      const fork = ((await (await call('shares/[id]/fork', 'POST', { id: share })).json()) as { id: string }).id;
      const victimsFork = ((await (await call('shares/[id]/fork', 'POST', { id: victimShare })).json()) as { id: string }).id;
      expect([share, fork, victimsFork].every(Boolean)).toBe(true);

      const conversations = [claim, fork, victimsFork, victimFiles, victimKept];
      // The attacker's own project (a guest makes none), which claims the victim's hash as a dataset kept on a device.
      const madeProject = await call('projects', 'POST', {}, json({ name: 'mine' }));
      expect(madeProject.status).toBe(kind === 'account' ? 201 : 401);
      const ownProject = madeProject.status === 201 ? ((await madeProject.json()) as { id: string }).id : crypto.randomUUID();
      expect((await call('projects/[id]/device-files', 'POST', { id: ownProject }, json({ name: 'secret.csv', size: secretCsv.byteLength, sha256: secretSha }))).status).toBe(kind === 'account' ? 201 : 404);
      // The model is asked in the conversation that shows the victim's figure: it is sent none of it.
      const chatted = await chatIn(claim);
      expect(chatted.answer.status).toBe(200);
      expect(chatted.sentToModel).not.toContain(b64(figurePng));
      const leaks: string[] = [];
      const answered = new Map<string, number>();
      const check = async (what: string, response: Response) => {
        answered.set(what, response.status);
        const found = victimsIn(await bodyOf(response));
        if (found.length > 0) leaks.push(`${what} (${response.status}): ${found.join(', ')}`);
      };
      await check('POST /api/chat (the answer)', chatted.answer);
      /** Each value a route's parameter can take for this person, by the folder it names. */
      const paramSets = (pattern: string): Array<Record<string, string | string[]>> => {
        const names = [...pattern.matchAll(/\[(?:\.\.\.)?(\w+)\]/g)].map((m) => m[1]);
        let sets: Array<Record<string, string | string[]>> = [{}];
        for (const name of names) {
          const values: Array<string | string[]> =
            name === 'sha' ? [secretSha, figureSha]
            : name === 'all' ? [['get-session']]
            : name === 'toolCallId' ? [`call-${crypto.randomUUID()}`]
            : name === 'id' && pattern.startsWith('shares/') ? [share, victimShare]
            : name === 'id' && pattern.startsWith('admin/') ? [victim.userId]
            : name === 'id' && pattern.startsWith('projects/') ? [ownProject, victimProject]
            : name === 'fileId' ? victimProjectFiles
            : conversations;
          sets = sets.flatMap((set) => values.map((value) => ({ ...set, [name]: value })));
        }
        return sets;
      };
      // A conversation of the attacker's in their own project (which lists the victim's hash as a device-kept dataset) that used it.
      const inOwnProject = crypto.randomUUID();
      if (kind === 'account') {
        const { conversations: conversationRows } = await import('@/lib/db/schema.server');
        await (await getDb()).insert(conversationRows).values({ id: inOwnProject, ownerId: attacker.userId, projectId: ownProject });
        await upsertMessage(await getDb(), attacker.userId, inOwnProject, { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'Sum /data/secret.csv' }] });
      }
      const throughDatasets = [...victimProjectFiles.map((id) => `?dataset=${id}`), `?conversation=${victimProjectConversation}`, `?conversation=${inOwnProject}`, `?conversation=${claim}`];
      const searches = (pattern: string) => (pattern === 'blobs/[sha]' ? ['', `?share=${share}`, `?share=${victimShare}`, `?project=${ownProject}`, `?project=${victimProject}`, ...throughDatasets] : ['']);

      const patterns = routePatterns();
      expect(patterns).toEqual(expect.arrayContaining(['conversations/[id]/bundle', 'account/export', 'blobs/[sha]', 'conversations/[id]/notebook', 'conversations/[id]/script', 'shares/[id]/notebook', 'shares/[id]/script']));
      const deletes: Array<() => Promise<void>> = [];
      for (const pattern of patterns) {
        for (const [method] of await handlers(pattern)) {
          for (const params of paramSets(pattern)) {
            for (const search of searches(pattern)) {
              const what = `${method} /api/${pattern} ${JSON.stringify(params)}${search}`;
              if (method === 'GET') await check(what, await call(pattern, method, params, { search }));
              else {
                const probe = async () => check(what, await call(pattern, method, params, { search, ...json({ sha256: secretSha, name: 'secret.csv', size: secretCsv.byteLength, location: 'account' }) }));
                if (method === 'DELETE') deletes.push(probe);
                else await probe();
              }
            }
          }
        }
      }
      // After everything else, the downloads once more (the writes above made files, shares and forks), then the deletes.
      for (const id of [claim, fork, victimsFork]) for (const pattern of ['conversations/[id]/bundle', 'conversations/[id]/notebook']) await check(`GET /api/${pattern} ${id} again`, await call(pattern, 'GET', { id }));
      await check('GET /api/account/export again', await call('account/export', 'GET', {}));
      for (const probe of deletes) await probe();
      expect(leaks).toEqual([]);
      // The walk reached the downloads as their owner would (not only refusals): each answered 200 for the person's own conversation.
      for (const pattern of ['conversations/[id]/bundle', 'conversations/[id]/notebook', 'conversations/[id]/script']) expect(answered.get(`GET /api/${pattern} ${JSON.stringify({ id: claim })}`), pattern).toBe(200);
      for (const pattern of ['shares/[id]/notebook', 'shares/[id]/script']) expect(answered.get(`GET /api/${pattern} ${JSON.stringify({ id: share })}`), pattern).toBe(200);
      expect(answered.get('GET /api/account/export {}')).toBe(200);
    });
  }
  it('a share’s reader never sees the SHA-256 of a file kept on a device: a value salted per share, against which a dropped file is still checked', async () => {
    const { getDb } = await import('@/lib/db/client.server');
    const { ensureUser } = await import('@/lib/db/queries/users.server');
    const { getShare, listShareFiles } = await import('@/lib/db/queries/shares.server');
    const { isExpectedFile } = await import('@/lib/security/salted-hash');
    const db = await getDb();
    const reader = person(crypto.randomUUID(), 'guest');
    await ensureUser(db, reader.userId);
    as(reader);
    const shown = async (shareId: string) => (await listShareFiles(db, shareId)).find((file) => file.name === 'kept.csv')!;
    const [first, second] = [await shown(victimShare), await shown(victimShareAgain)];
    // What the share page hands the browser, and what its messages say, hold no SHA-256 of the file; two shares of it are unrelated.
    expect(first.sha256).not.toBe(secretSha);
    expect(first.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(second.sha256).not.toBe(first.sha256);
    expect(JSON.stringify(await listShareFiles(db, victimShare))).not.toContain(secretSha);
    expect(JSON.stringify((await getShare(db, victimShare))!.messages)).not.toContain(secretSha);
    // The reader's page checks a dropped file against it: the same bytes pass, others do not.
    const digest = async (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
    expect(await digest(secretCsv)).toBe(secretSha);
    for (const file of [first, second]) {
      expect(await isExpectedFile(secretSha, file)).toBe(true);
      expect(await isExpectedFile(await digest(new TextEncoder().encode('another,file\n')), file)).toBe(false);
    }

    // Every route the reader can call, with the share and with a fork of it (its own conversation), never answers the hash.
    const forked = await call('shares/[id]/fork', 'POST', { id: victimShare });
    expect(forked.status).toBe(200);
    const fork = ((await forked.json()) as { id: string }).id;
    const answers: string[] = [];
    for (const pattern of routePatterns()) {
      for (const [method] of await handlers(pattern)) {
        if (method !== 'GET') continue;
        const id = pattern.startsWith('shares/') ? victimShare : fork;
        const params = Object.fromEntries([...pattern.matchAll(/\[(?:\.\.\.)?(\w+)\]/g)].map((m) => [m[1], m[1] === 'all' ? ['get-session'] : m[1] === 'toolCallId' ? 'call-x' : m[1] === 'sha' ? secretSha : id]));
        const response = await call(pattern, 'GET', params, pattern === 'blobs/[sha]' ? { search: `?share=${victimShare}` } : {});
        const body = await bodyOf(response);
        const texts = [Buffer.from(body).toString('latin1'), ...(body[0] === 0x50 && body[1] === 0x4b ? Object.values(unzipSync(body)).map((entry) => Buffer.from(entry).toString('latin1')) : [])];
        if (texts.some((text) => text.includes(secretSha))) answers.push(`GET /api/${pattern} (${response.status})`);
      }
    }
    expect(answers).toEqual([]);

    // The fork keeps the file as the share showed it; shared again, its reader checks a dropped file through both shares' salts.
    const again = ((await (await call('conversations/[id]/share', 'POST', { id: fork })).json()) as { id: string }).id;
    const twice = await shown(again);
    expect(twice.sha256).not.toBe(first.sha256);
    expect(twice.salts).toHaveLength(2);
    expect(await isExpectedFile(secretSha, twice)).toBe(true);
  });
});
