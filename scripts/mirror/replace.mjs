// A mirror is built whole in a staging directory beside it and swapped in by rename only once
// every file is verified: a failure at any point leaves the previous mirror as it was and no
// staging directory behind.
import fs from 'node:fs';
import path from 'node:path';

/** Runs build(staging) and, when it resolves, makes the staging directory the mirror at `out`. */
export async function replaceAtomically(out, build) {
  const target = path.resolve(out);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const staging = `${target}.partial-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  let result;
  try {
    result = await build(staging);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  // Two renames on the same file system: the mirror is the old one or the new one, never a mix.
  const previous = `${target}.previous-${process.pid}`;
  if (fs.existsSync(target)) fs.renameSync(target, previous);
  fs.renameSync(staging, target);
  fs.rmSync(previous, { recursive: true, force: true });
  return result;
}
