// What the render benchmarks send through the app: a Python run with heavy output, and a long
// markdown answer. Both are deterministic, so runs are comparable.

export const OUTPUT_IMAGES = 20;
export const STDOUT_BYTES = 1_000_000;

/**
 * 1 MB of stdout in 10,000 prints, then 20 PNGs via display(). matplotlib is not available
 * offline, so the PNGs are built in pure Python (zlib + struct) and shown through the IPython
 * `_repr_png_` protocol the kernel supports. Rows are rotations of one gradient row, so building
 * the images costs little and the run's time is dominated by output handling.
 */
export const OUTPUT_CODE = `
import struct, zlib

for i in range(10_000):
    print(f"{i:06d} " + "x" * 92)

def png(width, height, shift):
    base = bytes((x * 3 + shift) & 255 for x in range(width * 3 * 2))
    rows = b"".join(b"\\x00" + base[(y * 3) % (width * 3):(y * 3) % (width * 3) + width * 3] for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")

class Picture:
    def __init__(self, data):
        self.data = data
    def _repr_png_(self):
        return self.data

for k in range(${OUTPUT_IMAGES}):
    display(Picture(png(480, 320, k * 11)))
`;

const TABLE = (n) =>
  [
    '| region | quarter | revenue | change |',
    '| --- | --- | ---: | ---: |',
    ...Array.from({ length: 6 }, (_, r) => `| region ${n}-${r} | Q${(r % 4) + 1} | ${(1000 + n * 37 + r * 113).toLocaleString('en-US')} | ${((n + r) % 9) - 4}.${r}% |`),
  ].join('\n');

const CODE = (n) =>
  [
    '```python',
    `def summarise_${n}(rows):`,
    '    """Totals per key, sorted by value."""',
    '    totals = {}',
    '    for key, value in rows:',
    '        totals[key] = totals.get(key, 0) + value',
    `    ranked = sorted(totals.items(), key=lambda kv: kv[1], reverse=True)`,
    `    return [(k, round(v, ${n % 4})) for k, v in ranked]`,
    '',
    `data = [("a", ${n}), ("b", ${n * 2}), ("a", ${n + 3})]`,
    `print(summarise_${n}(data))`,
    '```',
  ].join('\n');

const SECTION = (n) =>
  [
    `## Part ${n}: what the numbers say`,
    '',
    `The figures for part ${n} show a **steady** trend with a few *outliers*; the table below lists them, and \`summarise_${n}\` reproduces the totals. ` +
      'Each value was checked against the source file, and rounding follows the usual rules so that totals add up. '.repeat(2),
    '',
    `- first observation for part ${n}: revenue grew in three regions`,
    '- second observation: one region shrank, mostly in the last quarter',
    '- third observation: the change column is relative to the previous quarter',
    '  - nested detail: seasonal effects were not removed',
    '',
    TABLE(n),
    '',
    '1. Load the rows.',
    '2. Group by key and sum.',
    '3. Sort by total, largest first.',
    '',
    CODE(n),
    '',
  ].join('\n');

/** A markdown answer of about `tokens` tokens (a token taken as 4 characters). */
export function markdownAnswer(tokens, endMarker) {
  const target = tokens * 4;
  let text = '# Analysis\n\n';
  for (let n = 1; text.length < target; n += 1) text += SECTION(n);
  return `${text}\n${endMarker}\n`;
}
