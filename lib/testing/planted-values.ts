/**
 * Values to plant in a person's data, for tests of what must never reach the model provider:
 * generated from a seed (the same values again for a seed, so a failure can be replayed), each
 * made of fresh words of 7 letters (Latin capitals mostly; Greek, Cyrillic, Latin with diacritics,
 * Han) in the shapes values take: ASCII and curly quotes, apostrophes, spaces, commas, digits, line
 * breaks. A test checks that none of the words it made appears where it must not.
 */

/** mulberry32. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SCRIPTS = ['BCDFGHJKLMNPQRSTVWXZ', 'ΒΓΔΘΛΞΠΣΦΨΩ', 'БГДЖЗИЛПФЦЧШЩЮЯ', 'ÆØÅÑÇŒ', '龍鳳麒麟雀虎'].map((letters) => Array.from(letters));

export type PlantedValues = {
  /** Every word made so far: none may appear where values must not go. */
  words: string[];
  /** A new value, in one of the shapes. */
  value: () => string;
  /** A number of 4 or 5 digits, as text. */
  digits: () => string;
};

export function plantedValues(seed: number): PlantedValues {
  const next = generator(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const words: string[] = [];
  const word = () => {
    const script = next() < 0.6 ? SCRIPTS[0] : pick(SCRIPTS);
    const made = `${pick(SCRIPTS[0])}${Array.from({ length: 6 }, () => pick(script)).join('')}`;
    words.push(made);
    return made;
  };
  const digits = () => String(1000 + Math.floor(next() * 90000));
  const shapes = [
    () => `O’${word()} ${word()}`,
    () => `${word()}'s “${word()}”`,
    () => `${word()}, ${word()} ${digits()}`,
    () => `${word()}\n${word()}`,
    () => `"${word()}" ${word()}`,
    () => `${word()} ‘${word()}’`,
    () => `${word()}`,
    () => `${word()}-${digits()} ${word()}`,
  ];
  return { words, value: () => pick(shapes)(), digits };
}

/** A CSV of these rows, every cell quoted (quotes doubled), as another tool writes one. */
export function quotedCsv(rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const cell = (value: string | number) => `"${String(value).replace(/"/g, '""')}"`;
  return `${rows.map((row) => row.map(cell).join(',')).join('\n')}\n`;
}
