/**
 * The log never holds text that a person, a provider or a model wrote. Sentinels are planted in
 * every field a provider can echo (an error's message and body, an unknown tool's name and input,
 * a stream's half-sent fragment, the title's answer and its failures) and in the
 * emails of sign-ups, sign-ins and reset requests; the real code paths run (the chat route in
 * process against the fake model server over the real provider client, better-auth's endpoints on
 * an embedded database), every log line is captured (the app's pino logger) with everything
 * printed to the console, and no line may hold a sentinel.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type FakeScenario } from '@/e2e/fixtures/fake-openai/server.mjs';
import { chatFirstMessage, chatGuest, closeChatApp, storedTitle, chatAppEnv } from '@/lib/testing/chat-in-process';
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
  const env = chatAppEnv([{ id: 'fake', provider: 'openai-compatible', model: 'fake-model', baseURL: fake.url }], {
    AUTH_SECRET: 'foreign-text-secret-foreign-text-0123456',
    RUNPAD_ACCESS: 'accounts',
    RUNPAD_ADMIN_EMAILS: '',
    RUNPAD_ALLOWED_EMAILS: '',
    RUNPAD_OIDC_ISSUER: '',
    RUNPAD_PASSWORD_SIGN_IN: '1',
    RUNPAD_SMTP_URL: '',
    RUNPAD_LOG_LEVEL: 'trace',
  });
  dataDir = env.dataDir;
  for (const [name, value] of env.variables) vi.stubEnv(name, value);
  lines = captureAppLog();
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' ')));
  }
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await closeChatApp({ dataDir, model: fake });
});

/** Every line the log and the console hold that carries one of the tokens. */
function leaks(tokens: string[]): string[] {
  const all = [...lines.map((line) => JSON.stringify(line)), ...printed];
  return all.filter((line) => tokens.some((token) => line.includes(token)));
}

describe('the log never holds text a person, a provider or a model wrote', () => {
  it('the chat route: a provider’s error messages and bodies, an unknown tool, a half-sent stream, the title’s answer', async () => {
    const person = await chatGuest('192.0.2.44');
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
      const { conversationId } = await chatFirstMessage(person, 'fake', `${triggers[i]} ${plant(`USER${i}`)}`);
      if (answered) await vi.waitFor(async () => expect(await storedTitle(conversationId)).not.toBeNull(), { timeout: 20_000 });
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

  it('better-auth: a callback, redirect or error URL and an Origin a caller wrote are refused, and never reach the log', async () => {
    const { getAuth } = await import('@/lib/auth/auth.server');
    const tokens: string[] = [];
    /** Values holding a sentinel, written every way a caller can name another place. */
    const places = (tag: string): string[] => {
      const planted = sentinel(tag);
      tokens.push(planted.token);
      const t = planted.token;
      return [`https://${t.toLowerCase()}.example/x?q=${encodeURIComponent(planted.text)}`, `//${t}.example/`, `/\\${t}.example`, `http://[::1]:8080/${t}`, `javascript:alert('${t}')`, planted.text];
    };
    let n = 0;
    const post = async (pathname: string, body: unknown, headers: Record<string, string> = {}) => {
      n += 1;
      const request = new Request(`${ORIGIN}/api/auth${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-runpad-client-address': `10.8.${n}.1`, ...headers }, body: JSON.stringify(body) });
      return (await (await getAuth(ORIGIN)).handler(request)).status;
    };
    const email = `walker-${crypto.randomUUID().slice(0, 8)}@example.org`;
    expect(await post('/sign-up/email', { name: 'Walker', email, password: 'a long password' })).toBe(200);
    const statuses: number[] = [];
    for (const url of places('CB')) statuses.push(await post('/sign-in/email', { email, password: 'a long password', callbackURL: url }));
    for (const url of places('RT')) statuses.push(await post('/request-password-reset', { email, redirectTo: url }));
    for (const url of places('NU')) statuses.push(await post('/sign-up/email', { name: 'N', email: `n-${crypto.randomUUID().slice(0, 8)}@example.org`, password: 'a long password', callbackURL: url }));
    for (const url of places('EC')) statuses.push(await post('/sign-in/email', { email, password: 'a long password', callbackURL: '/', errorCallbackURL: url, newUserCallbackURL: url }));
    // Another origin with a cookie: refused, and the origin it named is not logged either (a header holds ASCII only).
    for (const url of places('OR').filter((value) => /^[\x20-\x7e]*$/.test(value))) statuses.push(await post('/sign-out', {}, { origin: url, cookie: 'runpad.session_token=x' }));
    expect(new Set(statuses)).toEqual(new Set([403]));
    expect(leaks(tokens)).toEqual([]);
  }, 60_000);
});
