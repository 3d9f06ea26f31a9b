/**
 * How the JavaScript worker turns values into text (pure; used inside the worker): what
 * `console.log` prints and what the last expression's value shows as, close to Node's console.
 */

/** A value as `console.log` prints it: strings as they are, anything else as `inspect` shows it. */
import 'client-only';
export function printed(args: readonly unknown[]): string {
  return args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg))).join(' ');
}

/** A value as a result: strings quoted, objects as JSON, functions and symbols by name. */
export function inspect(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'undefined':
      return 'undefined';
    case 'bigint':
      return `${value}n`;
    case 'function':
      return `[Function${value.name ? `: ${value.name}` : ' (anonymous)'}]`;
    case 'symbol':
      return value.toString();
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      return inspectObject(value);
    default:
      return String(value);
  }
}

function inspectObject(value: object | null): string {
  if (value === null) return 'null';
  if (value instanceof Error) return value.stack ?? `${value.name}: ${value.message}`;
  if (value instanceof Map) return `Map(${value.size}) ${inspectObject(Object.fromEntries(value))}`;
  if (value instanceof Set) return `Set(${value.size}) ${inspectObject([...value])}`;
  try {
    const seen = new WeakSet<object>();
    const json = JSON.stringify(
      value,
      (_key, item: unknown) => {
        if (typeof item === 'bigint') return `${item}n`;
        if (typeof item === 'function' || typeof item === 'symbol' || item === undefined) return inspect(item);
        if (typeof item === 'object' && item !== null) {
          if (seen.has(item)) return '[Circular]';
          seen.add(item);
        }
        return item;
      },
      2,
    );
    return json ?? String(value);
  } catch (error) {
    // An object whose toJSON throws (or a getter): shown by its string form, as Node falls back to.
    if (error instanceof Error) return String(value);
    throw error;
  }
}

/**
 * The 1-based line of the evaluated code an error's stack names (Chromium's and V8's
 * `<anonymous>:line:column` frame of `eval` code), or undefined.
 */
export function lineOfError(stack: string | undefined): number | undefined {
  const match = stack ? /<anonymous>:(\d+):\d+/.exec(stack) : null;
  const line = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(line) && line > 0 ? line : undefined;
}
