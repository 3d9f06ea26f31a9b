// Inputs and statistics for bench/targets.mjs: a 1,000,000-row sales CSV and a 500-node DOT graph,
// both generated from a fixed seed, so every run (and every engine in a run) gets the same bytes.
import crypto from 'node:crypto';
import fs from 'node:fs';

/** mulberry32: small, fast and deterministic; Math.random cannot be seeded. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const CSV_ROWS = 1_000_000;
export const REGIONS = 20;
const PRODUCTS = 500;

/**
 * Writes the sales CSV (id, region, product, amount with two decimals) and returns its size and
 * SHA-256, which the browser side checks to be sure it queries the very same file.
 */
export function writeSalesCsv(file, rows = CSV_ROWS) {
  const random = seededRandom(20_240_601);
  const fd = fs.openSync(file, 'w');
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  const flush = (text) => {
    fs.writeSync(fd, text);
    hash.update(text);
    bytes += Buffer.byteLength(text);
  };
  let chunk = 'id,region,product,amount\n';
  for (let id = 1; id <= rows; id += 1) {
    const region = `region_${String(Math.floor(random() * REGIONS)).padStart(2, '0')}`;
    const product = `product_${String(Math.floor(random() * PRODUCTS)).padStart(3, '0')}`;
    const cents = 100 + Math.floor(random() * 99_900); // 1.00 to 999.99
    chunk += `${id},${region},${product},${(cents / 100).toFixed(2)}\n`;
    // Written in pieces: one 35 MB string would be built and copied for nothing.
    if (chunk.length > 1 << 20) {
      flush(chunk);
      chunk = '';
    }
  }
  flush(chunk);
  fs.closeSync(fd);
  return { rows, bytes, sha256: hash.digest('hex') };
}

export const GRAPH_NODES = 500;
const EXTRA_EDGES = 250;

/** A random tree over 500 nodes plus 250 extra edges (fixed seed): a plausible dependency graph. */
export function generateDot(nodes = GRAPH_NODES, extraEdges = EXTRA_EDGES) {
  const random = seededRandom(500);
  const lines = ['digraph bench {', '  node [shape=box, fontsize=10];'];
  for (let i = 0; i < nodes; i += 1) lines.push(`  n${i} [label="node ${i}"];`);
  for (let i = 1; i < nodes; i += 1) lines.push(`  n${Math.floor(random() * i)} -> n${i};`);
  for (let e = 0; e < extraEdges; e += 1) {
    const a = Math.floor(random() * nodes);
    const b = Math.floor(random() * nodes);
    if (a !== b) lines.push(`  n${Math.min(a, b)} -> n${Math.max(a, b)} [color=gray];`);
  }
  lines.push('}');
  return lines.join('\n');
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const round1 = (x) => Math.round(x * 10) / 10;

/** Median and p95 (nearest rank) of repeated timings, as bench/run.mjs reports them. */
export function stats(xs) {
  const s = sorted(xs);
  return { median: round1(s[Math.floor(s.length / 2)]), p95: round1(s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]), n: s.length, raw: xs.map(round1) };
}
