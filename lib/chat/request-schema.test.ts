import { describe, expect, it } from 'vitest';
import { chatRequestSchema } from './request-schema.server';
import { AppError } from '@/lib/errors.server';
import { readJson } from '@/lib/http/read-json.server';

const post = (body: string, headers: Record<string, string> = {}) =>
  new Request('http://localhost/api/chat', { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

const valid = {
  id: '0b6f8f53-0c59-4a43-8b55-3a5c6b0c7f1e',
  message: { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] },
};

describe('chat request validation', () => {
  it('accepts a valid body and fills defaults', async () => {
    const parsed = await readJson(post(JSON.stringify(valid)), chatRequestSchema);
    expect(parsed.settings).toEqual({ includeImages: true, stepBudget: 8 });
    expect(parsed.packageSources).toEqual({});
  });

  it('reads the package sources keyed by target', async () => {
    const parsed = await readJson(post(JSON.stringify({ ...valid, packageSources: { python: 'unreachable', r: 'reachable' } })), chatRequestSchema);
    expect(parsed.packageSources).toEqual({ python: 'unreachable', r: 'reachable' });
  });

  it.each([
    ['not JSON', '{nope', 'not valid JSON'],
    ['a bad conversation id', JSON.stringify({ ...valid, id: 'x' }), 'at id'],
    ['a bad role', JSON.stringify({ ...valid, message: { ...valid.message, role: 'system' } }), 'at message.role'],
    ['a package source of no target', JSON.stringify({ ...valid, packageSources: { cobol: 'reachable' } }), 'at packageSources'],
    ['a package source answer that is none', JSON.stringify({ ...valid, packageSources: { r: 'maybe' } }), 'at packageSources.r'],
    ['a step budget out of range', JSON.stringify({ ...valid, settings: { stepBudget: 1000 } }), 'at settings.stepBudget'],
  ])('rejects %s with 400 and a clear message', async (_, body, expected) => {
    const refused = await readJson(post(body), chatRequestSchema).then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'request:invalid', status: 400 });
    expect((refused as AppError).toResponse().status).toBe(400);
    expect((await (refused as AppError).toResponse().json()).error).toContain(expected);
  });

  it('rejects an oversized body with 413', async () => {
    const refused = readJson(post(JSON.stringify({ ...valid, pad: 'x'.repeat(2000) })), chatRequestSchema, 1000);
    await expect(refused).rejects.toMatchObject({ code: 'request:too_large', status: 413, message: expect.stringContaining('larger than') });
  });
});

describe('JSON bodies', () => {
  it('measure nesting without recursion and refuse past the limit', async () => {
    const { nestingDepth, MAX_JSON_DEPTH } = await import('@/lib/http/read-json.server');
    let deep: unknown = 1;
    for (let i = 0; i < 50_000; i += 1) deep = [deep];
    expect(nestingDepth(deep)).toBeGreaterThan(MAX_JSON_DEPTH);
    expect(nestingDepth({ a: [{ b: 1 }] })).toBe(3);
  });
});
