/**
 * The one list of display MIME types a run's output may carry: what the page renders, what the
 * server stores and exports, and (those marked `fromPython`) what the Python side passes on from
 * `_repr_mimebundle_` / `display(..., raw=True)`. The Python copy is
 * lib/targets/python/engine/runpad/mime_types.py; lib/runtime/mime-types.test.ts fails when the two differ.
 *
 * Anything else (text/html, application/javascript, …) is dropped where it enters: the page never
 * renders markup or code of a run's making.
 */
export const DISPLAY_MIME_TYPES = [
  { type: 'text/plain', fromPython: true, what: 'text; every bundle has it' },
  { type: 'text/markdown', fromPython: true, what: 'rendered as Markdown (no raw HTML)' },
  { type: 'image/png', fromPython: true, what: 'base64 PNG, or a stored blob reference' },
  { type: 'image/jpeg', fromPython: true, what: 'base64 JPEG, or a stored blob reference' },
  { type: 'application/vnd.dataresource+json', fromPython: true, what: 'a table (pandas orient="table")' },
  { type: 'application/vnd.vegalite.v5+json', fromPython: true, what: 'a Vega-Lite chart spec with inline data' },
  { type: 'application/vnd.vegalite.v6+json', fromPython: true, what: 'a Vega-Lite chart spec with inline data' },
  { type: 'text/vnd.graphviz', fromPython: true, what: 'DOT source; the page draws it with the Graphviz target' },
  // Made in the page only (the Graphviz worker's sanitized SVG), so an SVG never comes from a run's code.
  { type: 'image/svg+xml', fromPython: false, what: 'a sanitized Graphviz SVG, shown as an image' },
] as const;

export type DisplayMimeType = (typeof DISPLAY_MIME_TYPES)[number]['type'];

/** The types Python may emit, in list order (the Python copy holds exactly these). */
export const PYTHON_MIME_TYPES: readonly DisplayMimeType[] = DISPLAY_MIME_TYPES.filter((entry) => entry.fromPython).map((entry) => entry.type);

/** Image types the page shows as pictures and the model receives as images. */
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg'] as const satisfies readonly DisplayMimeType[];
