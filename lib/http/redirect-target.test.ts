import { describe, expect, it } from 'vitest';
import { redirectPath, signInPath } from './redirect-target';

const ORIGIN = 'https://runpad.example';

/** How the sign-in page receives `next`: decoded once from the link's query string. */
const fromQuery = (encoded: string) => new URL(`${ORIGIN}/sign-in?next=${encoded}`).searchParams.get('next');

describe('a redirect target', () => {
  it('is a same-origin path, handed on normalised', () => {
    expect(redirectPath('/account', ORIGIN)).toBe('/account');
    expect(redirectPath('/c/123?x=1#part', ORIGIN)).toBe('/c/123?x=1#part');
    expect(redirectPath('/a/../admin', ORIGIN)).toBe('/admin');
    expect(redirectPath('/a b', ORIGIN)).toBe('/a%20b');
    expect(redirectPath('/account')).toBe('/account');
  });

  it('is the home page for a path the browser reads as another host', () => {
    for (const target of ['//evil.example/x', '/\\evil.example/x', '\\\\evil.example', '/\\/evil.example', '/\t/evil.example/x', '/\n/evil.example', '/\r//evil.example', '/\u0000/evil.example', '/\u007f/evil.example', '/.//evil.example/x', '/./\\evil.example']) {
      expect(redirectPath(target, ORIGIN), JSON.stringify(target)).toBe('/');
    }
  });

  it('is the home page for those forms as a link encodes them', () => {
    for (const encoded of ['%2F%5Cevil.example%2Fstolen', '%2F%09%2Fevil.example%2Fstolen', '%2F%2Fevil.example', '/%5C/evil.example', '%2F%0D%0A%2Fevil.example', '%2F.%2F%2Fevil.example', '%2f%5cevil.example']) {
      expect(redirectPath(fromQuery(encoded), ORIGIN), encoded).toBe('/');
    }
    // Encoded twice, the browser's one decoding leaves a same-origin path with a literal %5C in it.
    expect(redirectPath(fromQuery('%2F%255Cevil.example'), ORIGIN)).toBe('/%5Cevil.example');
  });

  it('is the home page for what is not a path: another origin, a scheme, nothing', () => {
    for (const target of ['https://evil.example/', `${ORIGIN}/account`, 'javascript:alert(1)', 'evil.example', '', ' /account', '/'.padEnd(3_000, 'a'), undefined, null, ['/account'], 42]) {
      expect(redirectPath(target, ORIGIN), JSON.stringify(target)).toBe('/');
    }
  });

  it('builds the sign-in page’s link with its `next` through the same rule', () => {
    expect(signInPath({ next: '/admin' })).toBe('/sign-in?next=%2Fadmin');
    expect(signInPath({ next: '/\\evil.example' })).toBe('/sign-in?next=%2F');
    expect(signInPath({ notice: 'signed-out' })).toBe('/sign-in?signed-out=1');
    expect(signInPath()).toBe('/sign-in');
  });
});
