/** 1234567 → "1.2 MB" (decimal units, as file managers show). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = -1;
  do {
    value /= 1000;
    unit += 1;
  } while (value >= 1000 && unit < units.length - 1);
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** Milliseconds as "120 ms", "2.4 s", "1 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** 1234567 → "1,234,567" (tokens, requests). */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** US dollars: "$1,234.50", "$0.25"; amounts under a cent keep two significant digits ("$0.0002"). */
export function formatUsd(usd: number): string {
  if (usd > 0 && usd < 0.01) return `$${Number(usd.toPrecision(2))}`;
  return usd.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
