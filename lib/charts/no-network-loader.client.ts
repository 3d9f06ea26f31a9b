/**
 * A Vega loader that loads nothing. Vega asks its loader for every URL a chart names: data
 * (`load`), images and links (`sanitize`), and through those `http` / `file`. Every one of them
 * is refused and remembered, so a chart can only draw the data inside its spec, nothing in it
 * reaches the network, and a chart that asked for a URL can say so.
 */
import 'client-only';
import type { Loader } from 'vega';

/**
 * The refusal. It has no `url` property on purpose: when an image fails to load, Vega's renderer
 * uses the error's `url` as the image's `src` (vega-scenegraph ResourceLoader.loadImage), and
 * the browser would then fetch it after all.
 */
export class UrlRefusedError extends Error {
  constructor(readonly refusedUrl: string) {
    super(`Charts may not load URLs (data must be inline): ${refusedUrl}`);
    this.name = 'UrlRefusedError';
  }
}

export function noNetworkLoader(): { loader: Loader; refused: readonly string[] } {
  const refused: string[] = [];
  const refuse = (uri: unknown): Promise<never> => {
    const url = String(uri).slice(0, 2_000);
    refused.push(url);
    return Promise.reject(new UrlRefusedError(url));
  };
  const loader: Loader = {
    load: (uri) => refuse(uri),
    sanitize: (uri) => refuse(uri),
    http: (uri) => refuse(uri),
    file: (filename) => refuse(filename),
  };
  return { loader, refused };
}
