// Downloads for `npm run mirror`: to a file while hashing it, or into memory with a size cap, and
// every failure in words that name the URL and what went wrong (HTTP status, unreachable host,
// interrupted transfer, checksum mismatch).
import { createHash } from 'node:crypto';
import fs from 'node:fs';

/** Why a request got no answer, in words: the connection error's code rather than "fetch failed". */
function unreachable(url, error) {
  const cause = error?.cause;
  const reason = cause?.code ?? cause?.message ?? error?.message ?? String(error);
  return new Error(`${url} cannot be reached (${reason}); check the source URL and this machine's network`);
}

async function request(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw unreachable(url, error);
  }
  if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status}${response.status === 404 ? ' (not found)' : ''}`);
  return response;
}

function interrupted(url, error) {
  return new Error(`${url}: download interrupted (${error?.cause?.code ?? error?.message ?? error})`);
}

/**
 * Streams `url` into `target`; resolves to its size and digests once the body arrived whole (as
 * many bytes as announced). Checks `expected` digests ({ sha256, md5 }) and throws on a mismatch.
 */
export async function downloadTo(url, target, expected = {}) {
  const response = await request(url);
  const sha256 = createHash('sha256');
  const md5 = createHash('md5');
  const file = fs.createWriteStream(target);
  let bytes = 0;
  try {
    for await (const chunk of response.body) {
      sha256.update(chunk);
      md5.update(chunk);
      bytes += chunk.length;
      if (!file.write(chunk)) await new Promise((resolve) => file.once('drain', resolve));
    }
  } catch (error) {
    throw interrupted(url, error);
  } finally {
    await new Promise((resolve) => file.end(resolve));
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared !== bytes) throw new Error(`${url}: download interrupted (${bytes} of ${declared} bytes)`);
  const digests = { sha256: sha256.digest('hex'), md5: md5.digest('hex') };
  for (const [name, value] of Object.entries(expected)) {
    if (value !== undefined && value.toLowerCase() !== digests[name]) {
      throw new Error(`${url}: ${name} mismatch (expected ${value.toLowerCase()}, the file has ${digests[name]}); not mirrored`);
    }
  }
  return { bytes, ...digests };
}

/** The body of `url` in memory, or null on 404 (so a caller can try another name); at most maxBytes. */
export async function fetchOptional(url, maxBytes) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw unreachable(url, error);
  }
  if (response.status === 404) return null;
  if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status}`);
  const chunks = [];
  let bytes = 0;
  try {
    for await (const chunk of response.body) {
      bytes += chunk.length;
      if (bytes > maxBytes) throw new Error(`${url} is larger than ${maxBytes} bytes; refused`);
      chunks.push(chunk);
    }
  } catch (error) {
    if (bytes > maxBytes) throw error;
    throw interrupted(url, error);
  }
  return Buffer.concat(chunks);
}
