/**
 * The log never holds text that a person, a provider or a model wrote. Sentinels are planted in
 * every field a provider can echo (an error's message and body, an unknown tool's name and input,
 * a stream's half-sent fragment, the title's answer and its failures) and in the
 * emails of sign-ups, sign-ins and reset requests; the real code paths run (the chat route in
 * process against the fake model server over the real provider client, better-auth's endpoints on
 * an embedded database), every log line is captured (the app's pino logger) with everything
 * printed to the console, and no line may hold a sentinel.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type FakeScenario } from '@/e2e/fixtures/fake-openai/server.mjs';
import type { Identity } from '@/lib/auth/current-user.server';
import type { DbHandle } from '@/lib/db/client.server';
import { captureAppLog, type LogLine } from '@/lib/testing/captured-log';

const ORIGIN = 'http://localhost:3998';
let fake: FakeOpenAI;
let dataDir: string;
let lines: LogLine[] = [];
const printed: string[] = [];

/** A sentinel: a token no code writes, wrapped in the characters that trip naive filters (quotes of every kind, spaces, non-Latin letters, newlines). */
function sentinel(tag: string): { token: string; text: string } {
  const token = `SNTL${tag}${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  return { token, text: `${token} "double" 'single' \`back\` ‘curly’ “curly” «guillemets» Ωμέγα 名前 ${token}\nsecond line ${token}\r\n\ttabbed ${token}` };
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-foreign-text-'));
  vi.stubEnv('RUNPAD_DATA_DIR', dataDir);
  vi.stubEnv('DATABASE_URL', '');
  vi.stubEnv('REDIS_URL', '');
  vi.stubEnv('S3_BUCKET', '');
  vi.stubEnv('OPENAI_API_KEY', 'test-key');
  vi.stubEnv('OPENAI_BASE_URL', '');
  vi.stubEnv('RUNPAD_MODEL_SEES', '');
  vi.stubEnv('RUNPAD_MODELS', JSON.stringify([{ id: 'fake', provider: 'openai-compatible', model: 'fake-model', baseURL: fake.url }]));
  vi.stubEnv('AUTH_SECRET', 'foreign-text-secret-foreign-text-0123456');
  vi.stubEnv('RUNPAD_ACCESS', 'accounts');
  vi.stubEnv('RUNPAD_ADMIN_EMAILS', '');
  vi.stubEnv('RUNPAD_ALLOWED_EMAILS', '');
  vi.stubEnv('RUNPAD_OIDC_ISSUER', '');
  vi.stubEnv('RUNPAD_PASSWORD_SIGN_IN', '1');
  vi.stubEnv('RUNPAD_SMTP_URL', '');
  vi.stubEnv('RUNPAD_LOG_LEVEL', 'trace');
  lines = captureAppLog();
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' ')));
  }
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  const app = globalThis as unknown as { runpadDb?: Promise<DbHandle>; runpadStreams?: Promise<{ streams: { close(): Promise<void> }; registry: { close(): Promise<void> } }>; runpadRateLimits?: Map<string, Promise<{ close(): Promise<void> }>> };
  const [db, streams, limits] = [app.runpadDb, app.runpadStreams, [...(app.runpadRateLimits?.values() ?? [])]];
  Object.assign(app, { runpadDb: undefined, runpadStreams: undefined, runpadRateLimits: undefined, runpadBlobStore: undefined, runpadLogger: undefined });
  await streams?.then(async ({ streams: context, registry }) => Promise.all([context.close(), registry.close()]));
  await Promise.all(limits.map((opened) => opened.then((l) => l.close())));
  await db?.then((h) => h.close());
  vi.unstubAllEnvs();
  await fake?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function db() {
  return (await import('@/lib/db/client.server')).getDb();
}

async function guest(): Promise<Identity> {
  const { getPerson, insertGuest } = await import('@/lib/db/queries/users.server');
  const id = crypto.randomUUID();
  await insertGuest(await db(), id);
  return { userId: id, kind: 'guest', email: null, name: null, isAdmin: false, sessionId: null, person: (await getPerson(await db(), id))!, address: '192.0.2.44' };
}

/** POST /api/chat as route() answers it, read to its end. */
async function chat(identity: Identity, text: string) {
  const { route } = await import('@/lib/http/route.server');
  const { handleChat } = await import('@/lib/chat/handle-chat.server');
  const { chatRequestSchema } = await import('@/lib/chat/request-schema.server');
  const { ServerTiming } = await import('@/lib/http/server-timing.server');
  const { logger } = await import('@/lib/log/logger.server');
  const conversationId = crypto.randomUUID();
  const request = chatRequestSchema.parse({ id: conversationId, modelId: 'fake', message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text }] } });
  const response = await route(async ({ requestId }) => handleChat({ identity, request, timing: new ServerTiming(), requestId, log: logger().child({ requestId }) }))(new Request('http://app.test/api/chat'));
  return { status: response.status, body: await response.text(), conversationId };
}

async function titleOf(conversationId: string): Promise<string | null> {
  const { conversations } = await import('@/lib/db/schema.server');
  const [row] = await (await db()).select({ title: conversations.title }).from(conversations).where(eq(conversations.id, conversationId));
  return row?.title ?? null;
}

/** Every line the log and the console hold that carries one of the tokens. */
function leaks(tokens: string[]): string[] {
  const all = [...lines.map((line) => JSON.stringify(line)), ...printed];
  return all.filter((line) => tokens.some((token) => line.includes(token)));
}

describe('the log never holds text a person, a provider or a model wrote', () => {
  it('the chat route: a provider’s error messages and bodies, an unknown tool, a half-sent stream, the title’s answer', async () => {
    const person = await guest();
    const tokens: string[] = [];
    const plant = (tag: string) => {
      const planted = sentinel(tag);
      tokens.push(planted.token);
      return planted.text;
    };
    /** Each case: a scenario the fake plays, and whether the answer ends well (then a title is asked for). */
    const cases: Array<{ scenario: Omit<FakeScenario, 'trigger'>; answered: boolean }> = [
      // A 400 that quotes the prompt, OpenAI's way and the fake's own error shape.
      { scenario: { steps: [{ fault: { status: 400, message: `Invalid prompt: ${plant('E400')}`, headers: { 'x-request-id': 'req_foreign_1' } } }] }, answered: false },
      { scenario: { steps: [{ error: { status: 422, message: plant('E422') } }] }, answered: false },
      // A body that is no JSON at all, and one in Anthropic's shape with words in every field but the type.
      { scenario: { steps: [{ fault: { status: 502, body: `<html>${plant('BODY')}</html>` } }] }, answered: false },
      { scenario: { steps: [{ fault: { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: plant('ANTH'), param: plant('PARAM') }, echo: plant('ECHO') } } }] }, answered: false },
      { scenario: { steps: [{ fault: { status: 429, message: plant('RATE'), headers: { 'retry-after': '1' } } }] }, answered: false },
      // A tool no one offered, its name and input the model's words; the title's answer the same.
      { scenario: { steps: [{ text: plant('TOOLTXT'), toolCall: { name: plant('TOOL').replace(/\s+/g, '_'), arguments: { code: plant('ARGS') } } }], unstreamed: { toolCall: { name: plant('TTOOL'), arguments: { x: plant('TARGS') } } } }, answered: false },
      // A stream cut off inside a chunk that carries the model's words.
      { scenario: { steps: [{ fault: { malformed: true, afterChunks: 2, fragment: plant('FRAG') }, text: plant('FRAGTXT') }] }, answered: false },
      // The answer ends well; the title's request fails with the model's words, or answers broken JSON holding them, or answers well.
      { scenario: { steps: [{ text: 'A fine answer.' }], unstreamed: { error: { status: 400, message: plant('TERR') } } }, answered: true },
      { scenario: { steps: [{ text: 'A fine answer.' }], unstreamed: { fault: { malformed: true }, text: plant('TJSON') } }, answered: true },
      { scenario: { steps: [{ text: 'A fine answer.' }], unstreamed: { fault: { status: 500, body: plant('T500') } } }, answered: true },
      { scenario: { steps: [{ text: 'A fine answer.' }], unstreamed: { text: plant('TITLE') } }, answered: true },
      { scenario: { steps: [{ text: 'A fine answer.' }], unstreamed: { toolCall: { name: plant('TTOOL2'), arguments: { x: plant('TARGS2') } } } }, answered: true },
    ];
    const triggers = cases.map(() => `trigger-${crypto.randomUUID()}`);
    fake.addScenarios(cases.map(({ scenario }, i) => ({ ...scenario, trigger: triggers[i] })));
    for (const [i, { answered }] of cases.entries()) {
      // What the person wrote is a sentinel too: a provider's default answer echoes it.
      const { conversationId } = await chat(person, `${triggers[i]} ${plant(`USER${i}`)}`);
      if (answered) await vi.waitFor(async () => expect(await titleOf(conversationId)).not.toBeNull(), { timeout: 20_000 });
    }
    // The failures were logged, by what names them.
    const failures = lines.filter((line) => line.msg === 'model request failed');
    expect(failures.length).toBeGreaterThanOrEqual(6);
    const first = failures.find((line) => (line.err as { statusCode?: number }).statusCode === 400)!;
    expect(first.err).toMatchObject({ type: 'AI_APICallError', statusCode: 400, providerErrorType: 'invalid_request_error', requestId: 'req_foreign_1' });
    expect(lines.filter((line) => line.msg === 'title not generated; the first message names the conversation').length).toBeGreaterThanOrEqual(2);
    expect(leaks(tokens)).toEqual([]);
  }, 120_000);

  it('better-auth: an email in a sign-up, a second sign-up, a sign-in and a reset request is logged as a fingerprint', async () => {
    const { getAuth } = await import('@/lib/auth/auth.server');
    const token = `sntl${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const email = `o'brien+${token}@example.com`;
    let n = 0;
    const post = async (pathname: string, body: unknown) => {
      n += 1;
      const response = await (await getAuth(ORIGIN)).handler(
        new Request(`${ORIGIN}/api/auth${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-runpad-client-address': `10.9.0.${n}` }, body: JSON.stringify(body) }),
      );
      return response.status;
    };
    expect(await post('/sign-up/email', { name: `Bob ${token}`, email, password: 'a long password' })).toBe(200);
    expect(await post('/sign-up/email', { name: `Bob ${token}`, email, password: 'another long password' })).not.toBe(200);
    expect(await post('/sign-up/email', { name: `Bob ${token}`, email: email.toUpperCase(), password: 'another long password' })).not.toBe(200);
    expect(await post('/sign-in/email', { email, password: 'the wrong password' })).toBe(401);
    await post('/request-password-reset', { email, redirectTo: '/reset-password' });
    const attempts = lines.filter((line) => typeof line.msg === 'string' && line.msg.startsWith('Sign-up attempt for existing email'));
    expect(attempts).toHaveLength(2);
    // One email, one fingerprint, whatever its letters' case; never the email.
    const fingerprints = attempts.map((line) => /email~[A-Za-z0-9_-]+/.exec(line.msg as string)?.[0]);
    expect(fingerprints[0]).toBeDefined();
    expect(fingerprints[1]).toBe(fingerprints[0]);
    expect(leaks([token, token.toUpperCase(), 'example.com', 'EXAMPLE.COM'])).toEqual([]);
  }, 60_000);
});
