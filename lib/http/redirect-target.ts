/**
 * Where the app sends a browser, decided in one place: every redirect and `next` (sign-in, sign-out,
 * account deletion, the account and admin pages, a share's fork, the OpenID provider's callback
 * URL) goes through `redirectPath` or `signInPath`. A target is a path on the app's own origin, or
 * the home page.
 *
 * A check of the text (starts with `/`, not `//`) is not enough: browsers read `/\evil.example`
 * and `/<TAB>/evil.example` as `//evil.example`, another host, and `/.//evil.example` normalises to
 * a path that starts with `//`. So the target is parsed with the URL parser against the app's
 * origin, refused when it holds a backslash or a control character, when it is not a path, when
 * its origin differs, or when its normalised path would start with `//`; what is handed on is the
 * normalised path (path, query, fragment), never the text as it came. Pure: the server decides,
 * and the browser's own callers use the same rule.
 */
export const HOME_PATH = '/';

/** Longer targets are not links anyone follows; they fall back to the home page. */
const MAX_TARGET_CHARS = 2_048;
/** Any origin works as the base (a path keeps the base's origin); this one when the app's is unknown. */
const FALLBACK_ORIGIN = 'http://runpad.invalid';

const UNSAFE = /[\\\u0000-\u001f\u007f]/;

/** `target` as a same-origin path (normalised), or `/`. `origin` is the app's, when known. */
export function redirectPath(target: unknown, origin: string | null = null): string {
  if (typeof target !== 'string' || target.length === 0 || target.length > MAX_TARGET_CHARS) return HOME_PATH;
  if (UNSAFE.test(target) || !target.startsWith('/') || target.startsWith('//')) return HOME_PATH;
  let base: URL;
  try {
    base = new URL(origin ?? FALLBACK_ORIGIN);
  } catch {
    base = new URL(FALLBACK_ORIGIN);
  }
  let parsed: URL;
  try {
    parsed = new URL(target, base.origin);
  } catch {
    return HOME_PATH;
  }
  if (parsed.origin !== base.origin || parsed.username || parsed.password) return HOME_PATH;
  const path = `${parsed.pathname}${parsed.search}${parsed.hash}`;
  return path.startsWith('/') && !path.startsWith('//') ? path : HOME_PATH;
}

type SignInOptions = { next?: string; notice?: 'signed-out' | 'deleted' };

/** The sign-in page, with where to go after it (`next`, through `redirectPath`) and a notice. */
export function signInPath({ next, notice }: SignInOptions = {}, origin: string | null = null): string {
  const params = new URLSearchParams();
  if (next !== undefined) params.set('next', redirectPath(next, origin));
  if (notice) params.set(notice, '1');
  const query = params.toString();
  return query ? `/sign-in?${query}` : '/sign-in';
}
