import { afterEach, describe, expect, it, vi } from 'vitest';
import { streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

// route() names the guest in its refusal lines; there is no request scope here.
vi.mock('@/lib/auth/current-user.server', () => ({ sessionGuestId: async () => null }));
afterEach(() => vi.unstubAllEnvs());

const TOKEN = 'scrape-token-0123456789';

/** GET /api/metrics of an instance started with this RUNPAD_METRICS_TOKEN ('' = unset). */
async function metricsRoute(token: string) {
  vi.resetModules();
  vi.stubEnv('RUNPAD_METRICS_TOKEN', token);
  return (await import('@/app/api/metrics/route')).GET;
}

async function scrape(authorization = `Bearer ${TOKEN}`): Promise<string> {
  const GET = await metricsRoute(TOKEN);
  const response = await GET(new Request('http://app.test/api/metrics', { headers: { authorization } }));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of the sample `name` whose labels include `labels`, as a Prometheus server reads it; null when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return null;
}

describe('GET /api/metrics', () => {
  it('is off (404, saying which variable turns it on) while RUNPAD_METRICS_TOKEN is unset', async () => {
    const GET = await metricsRoute('');
    const response = await GET(new Request('http://app.test/api/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }));
    expect(response.status).toBe(404);
    expect((await response.json()).error).toMatch(/RUNPAD_METRICS_TOKEN/);
  });

  it('refuses a request without the token, or with another one (401, Bearer)', async () => {
    const GET = await metricsRoute(TOKEN);
    for (const authorization of [null, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, 'Basic c2NyYXBlOnRva2Vu']) {
      const response = await GET(new Request('http://app.test/api/metrics', { headers: authorization ? { authorization } : {} }));
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await response.json()).error).toMatch(/Authorization: Bearer/);
    }
  });

  it('answers the Prometheus text format for the right token, with the process’s own metrics', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE runpad_http_requests_total counter');
    expect(text).toContain('# TYPE runpad_model_first_chunk_seconds histogram');
    expect(text).toContain('# TYPE runpad_answer_streams_active gauge');
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('refuses a token shorter than 16 characters at start, naming the variable', async () => {
    vi.resetModules();
    vi.stubEnv('RUNPAD_METRICS_TOKEN', 'short');
    const { getConfig } = await import('@/lib/config.server');
    expect(() => getConfig()).toThrow(/RUNPAD_METRICS_TOKEN must be at least 16 characters/);
  });
});

describe('what route() counts', () => {
  it('every answer by route pattern, method and status, errors by code, and never an id', async () => {
    const before = await scrape();
    // The modules of that instance (scrape() loads them afresh).
    const { route } = await import('@/lib/http/route.server');
    const { AppError } = await import('@/lib/errors.server');
    const id = crypto.randomUUID();
    const files = route<{ id: string }>(async () => Response.json({ files: [] }));
    const limited = route<{ id: string }>(async () => {
      throw new AppError('rate_limit:exceeded', { message: 'Wait.', reason: 'test' });
    });
    const pattern = { route: '/api/conversations/[id]/files' };
    await files(new Request(`http://app.test/api/conversations/${id}/files`), { params: Promise.resolve({ id }) });
    await files(new Request(`http://app.test/api/conversations/${id}/files`), { params: Promise.resolve({ id }) });
    await limited(new Request(`http://app.test/api/conversations/${id}/files`, { method: 'DELETE' }), { params: Promise.resolve({ id }) });
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    expect(delta('runpad_http_requests_total', { ...pattern, method: 'GET', status: '200' })).toBe(2);
    expect(delta('runpad_http_requests_total', { ...pattern, method: 'DELETE', status: '429' })).toBe(1);
    expect(delta('runpad_http_errors_total', { ...pattern, code: 'rate_limit:exceeded' })).toBe(1);
    expect(delta('runpad_http_request_duration_seconds_count', { ...pattern, method: 'GET' })).toBe(2);
    expect(after).not.toContain(id);
    // A route without dynamic segments: Next passes a context without params.
    const health = route(async () => Response.json({ status: 'ok' }));
    expect((await health(new Request('http://app.test/api/health'), {} as never)).status).toBe(200);
    expect((await health(new Request('http://app.test/api/health'), { params: undefined } as never)).status).toBe(200);
    // The scrapes themselves are requests too.
    expect(sample(after, 'runpad_http_requests_total', { route: '/api/metrics', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1);
  });
});

describe('what a model answer counts', () => {
  /** A model that sends its first words, then waits for `release()` before it finishes. */
  function heldModel(usage: { input: number; output: number }) {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'First words' });
            await released;
            controller.enqueue({ type: 'text-end', id: 't' });
            controller.enqueue({
              type: 'finish',
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: { inputTokens: { total: usage.input, noCache: usage.input, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: usage.output, text: usage.output, reasoning: 0 } },
            });
            controller.close();
          },
        }),
      }),
    });
    return { model, release };
  }

  it('time to the first chunk while it streams; then its duration, its tokens, and no stream left in flight', async () => {
    const { observeModelStream } = await import('./model-stream.server');
    const modelId = `held-${crypto.randomUUID().slice(0, 8)}`;
    const { model, release } = heldModel({ input: 1200, output: 34 });
    const observed = observeModelStream(streamText({ model, prompt: 'hello' }).stream, modelId).getReader();
    const seen: string[] = [];
    while (!seen.includes('text-delta')) seen.push((await observed.read()).value?.type ?? 'done');
    const during = await scrape();
    expect(sample(during, 'runpad_answer_streams_active')).toBeGreaterThanOrEqual(1);
    expect(sample(during, 'runpad_model_first_chunk_seconds_count', { model: modelId })).toBe(1);
    expect(sample(during, 'runpad_model_duration_seconds_count', { model: modelId })).toBeNull();

    release();
    while (!(await observed.read()).done);
    const after = await scrape();
    expect(sample(after, 'runpad_model_duration_seconds_count', { model: modelId, outcome: 'finished' })).toBe(1);
    expect(sample(after, 'runpad_model_tokens_total', { model: modelId, kind: 'input' })).toBe(1200);
    expect(sample(after, 'runpad_model_tokens_total', { model: modelId, kind: 'output' })).toBe(34);
    expect(sample(after, 'runpad_answer_streams_active')).toBe((sample(during, 'runpad_answer_streams_active') ?? 0) - 1);
  });

  it('a model that fails counts as failed, with no first chunk', async () => {
    const { observeModelStream } = await import('./model-stream.server');
    const modelId = `failing-${crypto.randomUUID().slice(0, 8)}`;
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw new Error('provider down');
      },
    });
    const observed = observeModelStream(streamText({ model, prompt: 'hello', maxRetries: 0, onError: () => undefined }).stream, modelId).getReader();
    while (!(await observed.read()).done);
    const after = await scrape();
    expect(sample(after, 'runpad_model_duration_seconds_count', { model: modelId, outcome: 'failed' })).toBe(1);
    expect(sample(after, 'runpad_model_first_chunk_seconds_count', { model: modelId })).toBeNull();
  });
});
