/**
 * The app's metrics, in Prometheus' text format (prom-client), scraped at GET /api/metrics
 * (app/api/metrics/route.ts, behind RUNPAD_METRICS_TOKEN). One registry per process, kept on
 * globalThis like the app's other singletons: Next bundles route handlers and instrumentation
 * apart, and every copy of this module must count into the same registry. Labels are bounded
 * sets only (a route's pattern, a method, a status, an error code, a configured model's id):
 * never an id, an address or anything a person wrote.
 */
import 'server-only';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

function createMetrics() {
  const registry = new Registry();
  // The process's own: CPU, memory, event-loop delay, open handles (prom-client's standard names).
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: 'runpad_http_requests_total',
      help: 'API requests answered, by route pattern, method and HTTP status.',
      labelNames: ['route', 'method', 'status'] as const,
      registers,
    }),
    httpErrors: new Counter({
      name: 'runpad_http_errors_total',
      help: 'API requests answered with an error, by route pattern and error code (lib/errors.server.ts; "unspecified" for a refusal without one).',
      labelNames: ['route', 'code'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'runpad_http_request_duration_seconds',
      help: 'Time until an API response starts (a streamed answer: until its stream begins), by route pattern and method.',
      labelNames: ['route', 'method'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    modelFirstChunk: new Histogram({
      name: 'runpad_model_first_chunk_seconds',
      help: 'Time from a model request to its first chunk of answer (text, reasoning or a tool call), by model id.',
      labelNames: ['model'] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
      registers,
    }),
    modelDuration: new Histogram({
      name: 'runpad_model_duration_seconds',
      help: 'Time from a model request to the end of its answer, by model id and outcome (finished, failed, aborted).',
      labelNames: ['model', 'outcome'] as const,
      buckets: [0.5, 1, 2, 5, 10, 20, 40, 80, 160, 300],
      registers,
    }),
    modelTokens: new Counter({
      name: 'runpad_model_tokens_total',
      help: 'Tokens the model reported, by model id and kind (input, output).',
      labelNames: ['model', 'kind'] as const,
      registers,
    }),
    answerStreams: new Gauge({
      name: 'runpad_answer_streams_active',
      help: 'Answers being streamed from a model by this instance right now.',
      registers,
    }),
    uploads: new Counter({
      name: 'runpad_uploads_total',
      help: 'Files uploaded and stored.',
      registers,
    }),
    uploadBytes: new Counter({
      name: 'runpad_upload_bytes_total',
      help: 'Bytes of the files uploaded and stored.',
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const globalForMetrics = globalThis as unknown as { runpadMetrics?: Metrics };

export function metrics(): Metrics {
  globalForMetrics.runpadMetrics ??= createMetrics();
  return globalForMetrics.runpadMetrics;
}

/** One answered API request (called by route(), lib/http/route.server.ts). */
export function recordHttpRequest(request: { route: string; method: string; status: number; seconds: number; errorCode: string | null }): void {
  const m = metrics();
  m.httpRequests.inc({ route: request.route, method: request.method, status: String(request.status) });
  m.httpDuration.observe({ route: request.route, method: request.method }, request.seconds);
  if (request.status >= 400) m.httpErrors.inc({ route: request.route, code: request.errorCode ?? 'unspecified' });
}

/** One stored upload of `bytes` bytes. */
export function recordUpload(bytes: number): void {
  const m = metrics();
  m.uploads.inc();
  m.uploadBytes.inc(bytes);
}

/** The text a Prometheus server scrapes, and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
