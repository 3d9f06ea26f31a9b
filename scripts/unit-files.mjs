// The unit tests' files, and their split into the parts `npm test` queues (scripts/test.mjs).
//
// One walk of the tree for both Vitest (vitest.config.ts: which files run isolated) and the queue.
// The parts are made from each file's measured time (scripts/unit-weights.json, refreshed from a
// run's reports by `node scripts/unit-weights.mjs`): the heaviest files first, in parts that shrink
// as the work left shrinks, so the run ends on small parts and neither lane waits long for the
// other. Vitest's own --shard split by a hash of the paths made parts of 170 to 340 s, and the run
// ended with one lane finishing a 120 s part alone (bench/NOTES-ci.md, 2026-12-07).
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

// Hidden directories too: e2e/.artifacts holds the browser profiles the e2e suite makes and
// removes while the unit tests start beside it (a vanished directory failed the walk once).
const SKIPPED_DIRS = new Set(['node_modules', 'bench', 'test-results']);

/** Every unit test file (`*.test.ts`), as a path relative to the project's root, sorted. */
export function unitTestFiles(dir = '.') {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const file = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('.') ? [] : unitTestFiles(file);
      return entry.name.endsWith('.test.ts') ? [file] : [];
    })
    .sort();
}

/** Seconds per file from the last recorded run; a file not in it weighs as the median file. */
export function readUnitWeights() {
  const file = path.join(ROOT, 'scripts/unit-weights.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
}

/**
 * The files split into parts for a queue that `lanes` take from, whichever is free first: heaviest
 * files first; each part about a quarter of what is left per lane's share (so the parts shrink:
 * ~25 %, 19 %, 14 %… of the whole), never under `smallest` seconds unless the files run out.
 * Each file costs `perFile` seconds more than its tests (Vitest collects and imports it). Returns
 * [{ files, seconds }], every file in exactly one part, in the order to queue them.
 */
export function unitParts(files, weights, { lanes = 2, smallest = 30, perFile = 0.5 } = {}) {
  const known = files.map((file) => weights[file]).filter((seconds) => typeof seconds === 'number').sort((a, b) => a - b);
  const median = known.length > 0 ? known[Math.floor(known.length / 2)] : 1;
  const left = files.map((file) => ({ file, seconds: perFile + (typeof weights[file] === 'number' ? weights[file] : median) })).sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
  let remaining = left.reduce((sum, entry) => sum + entry.seconds, 0);
  const parts = [];
  while (left.length > 0) {
    const target = Math.max(remaining / (2 * lanes), smallest);
    const part = { files: [], seconds: 0 };
    // Heaviest first into the part while it fits; the first file always goes in.
    for (let i = 0; i < left.length && part.seconds < target; ) {
      if (part.files.length === 0 || part.seconds + left[i].seconds <= target) {
        part.files.push(left[i].file);
        part.seconds += left[i].seconds;
        left.splice(i, 1);
      } else i++;
    }
    remaining -= part.seconds;
    // What is left after this part would be a part too small to be worth a Vitest start: it joins this one.
    if (remaining < smallest / 2) {
      part.files.push(...left.splice(0).map((entry) => entry.file));
      part.seconds += remaining;
      remaining = 0;
    }
    parts.push({ files: part.files.sort(), seconds: Math.round(part.seconds) });
  }
  return parts;
}
