// The chat route under load: overhead against the fake model read directly, and many streams at once.
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil(xs.length * p) - 1))] ?? NaN;
const round = (x) => Math.round(x * 10) / 10;

async function session(app) {
  const response = await fetch(`${app}/`);
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error('no session cookie');
  return cookie;
}

/** Reads a streamed response to the end; times to first byte and last byte, and gaps between chunks. */
async function timed(promise) {
  const t0 = performance.now();
  const response = await promise;
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
  const serverTiming = parseServerTiming(response.headers.get('server-timing'));
  let first = null;
  let last = t0;
  const gaps = [];
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- only the timing of each chunk matters
  for await (const _chunk of response.body) {
    const now = performance.now();
    if (first === null) first = now - t0;
    else gaps.push(now - last);
    last = now;
  }
  return { ttfb: first ?? NaN, ttlb: last - t0, gaps, serverTiming };
}

/** The route's phases before its response (lib/http/server-timing.server.ts): { body: 0.4, session: 1.2, … } in ms. */
function parseServerTiming(header) {
  const phases = {};
  for (const entry of header?.split(',') ?? []) {
    const [name, ...params] = entry.trim().split(';');
    const duration = params.map((p) => p.trim()).find((p) => p.startsWith('dur='));
    if (name && duration) phases[name] = Number(duration.slice(4));
  }
  return phases;
}

function chatBody(text) {
  return JSON.stringify({ id: crypto.randomUUID(), message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text }] } });
}

const TOKENS_2000 = Array.from({ length: 2000 }, (_, i) => `w${i % 10}`).join(' ');

export async function routeOverhead({ app, fake, repeat }) {
  fake.addScenarios([{ trigger: 'bench-2000-tokens', chunkDelayMs: 0, steps: [{ text: TOKENS_2000 }] }]);
  const cookie = await session(app);
  // Unmeasured first requests: the route's first call compiles and connects what later ones reuse.
  for (let i = 0; i < 3; i += 1) {
    await timed(fetch(`${app}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: chatBody('bench-2000-tokens') }));
  }
  const direct = [];
  const route = [];
  for (let i = 0; i < repeat * 4; i += 1) {
    direct.push(
      await timed(
        fetch(`${fake.url}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'bench', stream: true, messages: [{ role: 'user', content: 'bench-2000-tokens' }] }),
        }),
      ),
    );
    route.push(await timed(fetch(`${app}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: chatBody('bench-2000-tokens') })));
  }
  const summary = (runs) => ({ ttfbMs: round(median(runs.map((r) => r.ttfb))), ttlbMs: round(median(runs.map((r) => r.ttlb))) });
  const d = summary(direct);
  const r = summary(route);
  // Median of each phase the route reports, and of their sum: the handler's own time before it
  // returns the response; the rest of the added first byte is Next's dispatch, the AI SDK's stream
  // setup and the model request.
  const phases = {};
  for (const name of Object.keys(route[0]?.serverTiming ?? {})) phases[name] = round(median(route.map((run) => run.serverTiming[name] ?? 0)));
  const handlerMs = round(median(route.map((run) => Object.values(run.serverTiming).reduce((sum, ms) => sum + ms, 0))));
  return { direct: d, route: r, addedTtfbMs: round(r.ttfbMs - d.ttfbMs), addedTtlbMs: round(r.ttlbMs - d.ttlbMs), ttlbRatio: round(r.ttlbMs / d.ttlbMs), serverTiming: { ...phases, handlerMs } };
}

export async function concurrency({ app, fake, streams }) {
  fake.addScenarios([{ trigger: 'bench-concurrent', chunkDelayMs: 10, steps: [{ text: TOKENS_2000.slice(0, 600) }] }]);
  const cookie = await session(app);
  const t0 = performance.now();
  const outcomes = await Promise.allSettled(
    Array.from({ length: streams }, () =>
      timed(fetch(`${app}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: chatBody('bench-concurrent') })),
    ),
  );
  const ok = outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value);
  const gaps = ok.flatMap((o) => o.gaps);
  return {
    streams,
    completed: ok.length,
    errors: streams - ok.length,
    wallMs: round(performance.now() - t0),
    chunkGapP50Ms: round(pct(gaps, 0.5)),
    chunkGapP99Ms: round(pct(gaps, 0.99)),
  };
}
