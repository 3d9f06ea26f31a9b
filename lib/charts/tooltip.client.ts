/**
 * The tooltip's HTML for vega-embed's default handler (vega-tooltip). The same table as
 * vega-tooltip's own formatter, every value escaped by its `sanitize`, but without its `image`
 * field, which would become an <img> loading a URL of the spec's choosing.
 */
import 'client-only';
type ValueToHtml = (value: unknown) => string;

function stringify(value: unknown, maxDepth: number): string {
  const seen: unknown[] = [];
  return JSON.stringify(value, function (this: unknown, _key, item: unknown) {
    if (typeof item !== 'object' || item === null) return item;
    seen.length = seen.indexOf(this) + 1;
    if (seen.length > maxDepth) return '[Object]';
    if (seen.includes(item)) return '[Circular]';
    seen.push(item);
    return item;
  });
}

export function formatTooltip(value: unknown, valueToHtml: ValueToHtml, maxDepth: number): string {
  if (Array.isArray(value)) return `[${value.map((item) => valueToHtml(typeof item === 'string' ? item : stringify(item, maxDepth))).join(', ')}]`;
  if (typeof value !== 'object' || value === null) return valueToHtml(value);
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- `image` is dropped on purpose
  const { title, image, ...rest } = value as Record<string, unknown>;
  let html = title ? `<h2>${valueToHtml(title)}</h2>` : '';
  const rows = Object.entries(rest).filter(([, item]) => item !== undefined);
  if (rows.length > 0) {
    html += '<table>';
    for (const [key, item] of rows) {
      const shown = typeof item === 'object' && item !== null ? stringify(item, maxDepth) : item;
      html += `<tr><td class="key">${valueToHtml(key)}</td><td class="value">${valueToHtml(shown)}</td></tr>`;
    }
    html += '</table>';
  }
  return html || '{}';
}
