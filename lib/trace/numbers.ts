/**
 * Numbers as people and programs write them: "3,214,567", "-0.034", "12.4%", "$3.2M", "1.2e+06",
 * "4.5 billion". One grammar for both sides of a trace (the answer's prose and a run's outputs),
 * so "3.2M" in the prose and "3.2M" printed by pandas parse the same way.
 */

/** A number with what its writing says about it: shown precision, unit scale, percent. */
export type NumberToken = {
  /** The text as written, trimmed ("$3.2M", "12.4%"). */
  raw: string;
  /** Offsets of `raw` in the text it was found in. */
  start: number;
  end: number;
  /** The mantissa as written, without sign ("3.2" of "$3.2M" is 3.2). */
  mantissa: number;
  negative: boolean;
  /** Digits after the decimal point of the mantissa: the shown precision. */
  decimals: number;
  /** 1, or 1e3 (k, thousand), 1e6 (M, million), 1e9 (bn, B, billion), 1e12 (T, trillion). */
  scale: number;
  percent: boolean;
  currency: boolean;
  /** A unit glued on or after a space (ms, GB, kg, x) — kept, but it is not a scale. */
  unit: string | null;
};

const WORD_SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };
const LETTER_SCALES: Record<string, number> = { k: 1e3, K: 1e3, M: 1e6, mn: 1e6, bn: 1e9, B: 1e9, b: 1e9, T: 1e12, tn: 1e12 };
/** Units that follow a number; they say what it counts, not how big it is. */
const UNITS = ['ms', 's', 'sec', 'min', 'h', 'hrs', 'GB', 'MB', 'KB', 'kB', 'TB', 'GiB', 'MiB', 'KiB', 'kg', 'g', 'km', 'm', 'cm', 'mm', 'x', '×', 'pp', 'bp', 'USD', 'EUR', 'GBP'];

/**
 * currency, sign, digits (with thousands separators, decimals, exponent), then a percent, a scale
 * or a unit. Groups: 1 currency before the sign, 2 sign, 3 currency after the sign, 4 digits,
 * 5 exponent, 6 the rest (checked by `suffixOf`).
 */
const NUMBER = /(US\$|A\$|C\$|[$€£¥₹])?([+\-−]?)(US\$|[$€£¥₹])?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)([eE][+-]?\d+)?((?:\s?%)|(?:\s?(?:percentage points?|percent|per cent)\b)|(?:\s?(?:thousand|million|billion|trillion)\b)|(?:(?:bn|mn|tn|[kKMBbT])(?![A-Za-z0-9]))|(?:\s?(?:ms|sec|min|hrs|GiB|MiB|KiB|GB|MB|KB|kB|TB|kg|km|cm|mm|pp|bp|USD|EUR|GBP|[shgmx×])(?![A-Za-z0-9])))?/g;

type Suffix = { scale: number; percent: boolean; unit: string | null };

function suffixOf(text: string | undefined, currency: boolean): Suffix {
  const word = (text ?? '').trim();
  if (!word) return { scale: 1, percent: false, unit: null };
  if (word === '%' || word.startsWith('percent') || word === 'per cent') return { scale: 1, percent: true, unit: null };
  if (word.startsWith('percentage point') || word === 'pp') return { scale: 1, percent: true, unit: 'pp' };
  if (word in WORD_SCALES) return { scale: WORD_SCALES[word], percent: false, unit: null };
  // "b" and "m" alone are billions and millions only next to a currency ("$5m"); else bytes, metres.
  if (word in LETTER_SCALES && (currency || !['b', 'm'].includes(word))) return { scale: LETTER_SCALES[word], percent: false, unit: null };
  if (UNITS.includes(word)) return { scale: 1, percent: false, unit: word };
  return { scale: 1, percent: false, unit: null };
}

/** Every number token of `text`, in order; the caller decides which ones count. */
export function numberTokens(text: string): NumberToken[] {
  const tokens: NumberToken[] = [];
  for (const match of text.matchAll(NUMBER)) {
    const [whole, currencyBefore, sign, currencyAfter, digits, exponent, suffix] = match;
    let start = match.index;
    const before = text[start - 1] ?? '';
    // ".3" of "1.2.3" is no number of its own; "-20" of "10-20" is a range, not a negative.
    if (whole.startsWith('.') && /\d/.test(before)) continue;
    const rangeDash = sign !== '' && !currencyBefore && /[\p{L}\p{N}]/u.test(before);
    if (rangeDash) start += 1;
    const currency = Boolean(currencyBefore || currencyAfter);
    const parsed = suffixOf(suffix, currency);
    // A suffix the grammar took but that is no scale/percent/unit ("5 s" is seconds, fine; "3 b" is not billions).
    const rawEnd = suffix && parsed.scale === 1 && !parsed.percent && parsed.unit === null ? whole.length - suffix.length : whole.length;
    const raw = whole.slice(rangeDash ? 1 : 0, rawEnd).trimEnd();
    const mantissa = Number(digits.replace(/,/g, '') + (exponent ?? ''));
    if (!Number.isFinite(mantissa)) continue;
    const dot = digits.indexOf('.');
    const decimals = exponent ? Math.max(0, (dot === -1 ? 0 : digits.length - dot - 1) - Number(exponent.slice(1))) : dot === -1 ? 0 : digits.length - dot - 1;
    tokens.push({
      raw,
      start,
      end: start + raw.length,
      mantissa,
      negative: !rangeDash && (sign === '-' || sign === '−'),
      decimals,
      scale: parsed.scale,
      percent: parsed.percent,
      currency,
      unit: parsed.unit,
    });
  }
  return tokens;
}

/** The value a token stands for, in base units (3.2M → 3,200,000; 12.4% → 12.4). Sign dropped. */
export function magnitude(token: Pick<NumberToken, 'mantissa' | 'scale'>): number {
  return Math.abs(token.mantissa) * token.scale;
}
