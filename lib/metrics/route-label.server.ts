/**
 * The pattern of an API route, for a metric's label: the request's path with each dynamic
 * segment's value put back as its name (`/api/conversations/[id]/files`,
 * `/api/auth/[...all]`), from the params Next matched. A label never carries an id, so the
 * number of series stays that of the routes.
 */
/** A path whose params could not be placed: one label for all of them, never the path itself. */
import 'server-only';
export const UNMATCHED = '(unmatched)';

type Params = Record<string, string | string[] | undefined>;

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function routeLabel(pathname: string, params: Params | undefined): string {
  const segments = pathname.split('/');
  for (const [name, value] of Object.entries(params ?? {})) {
    if (Array.isArray(value)) {
      // A catch-all takes the path's last segments.
      const tail = segments.slice(segments.length - value.length).map(decoded);
      if (value.length === 0) continue;
      if (tail.join('/') !== value.join('/')) return UNMATCHED;
      segments.splice(segments.length - value.length, value.length, `[...${name}]`);
      continue;
    }
    if (value === undefined) continue;
    const index = segments.findIndex((segment, i) => i > 0 && !segment.startsWith('[') && decoded(segment) === value);
    if (index < 0) return UNMATCHED;
    segments[index] = `[${name}]`;
  }
  return segments.join('/');
}
