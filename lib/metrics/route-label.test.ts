import { describe, expect, it } from 'vitest';
import { routeLabel, UNMATCHED } from './route-label.server';

describe('a route’s pattern for a metric label', () => {
  it('puts each dynamic segment’s name where its value was', () => {
    const id = '0b5e3a8e-3f4c-4b8e-9a57-0f1f2d3c4b5a';
    expect(routeLabel(`/api/conversations/${id}/files`, { id })).toBe('/api/conversations/[id]/files');
    expect(routeLabel(`/api/conversations/${id}/cells/call_1`, { id, toolCallId: 'call_1' })).toBe('/api/conversations/[id]/cells/[toolCallId]');
    expect(routeLabel('/api/health', undefined)).toBe('/api/health');
  });

  it('a catch-all takes the last segments, decoded as Next decodes them', () => {
    expect(routeLabel('/api/auth/sign-in/social', { all: ['sign-in', 'social'] })).toBe('/api/auth/[...all]');
    expect(routeLabel('/api/shares/a%20b/fork', { id: 'a b' })).toBe('/api/shares/[id]/fork');
  });

  it('a value it cannot place gives one label for all such paths, never the path', () => {
    expect(routeLabel('/api/shares/abc/fork', { id: 'xyz' })).toBe(UNMATCHED);
    expect(routeLabel('/api/auth/a/b', { all: ['c'] })).toBe(UNMATCHED);
  });
});
