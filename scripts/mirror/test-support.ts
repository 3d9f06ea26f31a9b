// What the mirror tests build their sources from (nothing here is reachable from the app): a local
// HTTP server that records what it was asked, and the small archives and modules it serves.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';

/** What a route answers: bytes, nothing (404), or a body cut off after a few bytes. */
export type Reply = Buffer | undefined | 'cut';

/** requests: every path asked for, in order; answered: those it had a file for (200). */
export type TestServer = { origin: string; requests: string[]; answered: string[]; close(): Promise<void> };

export async function startServer(route: (pathname: string) => Reply): Promise<TestServer> {
  const requests: string[] = [];
  const answered: string[] = [];
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    requests.push(pathname);
    const reply = route(pathname);
    if (reply === 'cut') {
      // Announces 1000 bytes, sends 10, then drops the connection: an interrupted download.
      response.writeHead(200, { 'content-length': '1000' });
      response.write('0123456789', () => response.socket?.destroy());
      return;
    }
    if (!reply) {
      response.writeHead(404).end('not found');
      return;
    }
    answered.push(pathname);
    response.writeHead(200, { 'content-length': String(reply.length) }).end(request.method === 'HEAD' ? undefined : reply);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    answered,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A route serving the files under `dir` at `prefix` (a mirror as a web server would). */
export function directoryRoute(prefix: string, dir: string): (pathname: string) => Reply {
  return (pathname) => {
    if (!pathname.startsWith(prefix)) return undefined;
    const file = path.join(dir, pathname.slice(prefix.length));
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return undefined;
    return fs.readFileSync(file);
  };
}

/** The port nothing listens on: a server started and closed at once. */
export async function unusedOrigin(): Promise<string> {
  const server = await startServer(() => undefined);
  await server.close();
  return server.origin;
}

function tarHeader(name: string, size: number, type: '0' | '5'): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'utf8');
  header.write(type === '5' ? '0000755\0' : '0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write(type, 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return header;
}

/** A gzipped tar archive (what R's untar reads): directories first, then files. */
export function tgz(files: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  const directories = new Set<string>();
  for (const name of Object.keys(files)) {
    const segments = name.split('/').slice(0, -1);
    segments.forEach((_, i) => directories.add(`${segments.slice(0, i + 1).join('/')}/`));
  }
  for (const directory of [...directories].sort()) parts.push(tarHeader(directory, 0, '5'));
  for (const [name, text] of Object.entries(files)) {
    const body = Buffer.from(text, 'utf8');
    parts.push(tarHeader(name, body.length, '0'), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(parts));
}

/** A binary R package's archive as webR's repository serves one: `<name>/DESCRIPTION` and a little more. */
export function rPackageArchive(name: string, version: string, rVersion: string): Buffer {
  return tgz({
    [`${name}/DESCRIPTION`]: `Package: ${name}\nVersion: ${version}\nTitle: Test package ${name}\nLicense: MIT\nBuilt: R ${rVersion}; ; 2026-01-01 00:00:00 UTC; emscripten\n`,
    [`${name}/NAMESPACE`]: '# empty\n',
  });
}

function leb128(value: number): Buffer {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value) byte |= 0x80;
    bytes.push(byte);
  } while (value);
  return Buffer.from(bytes);
}

/** A WebAssembly custom section: id 0, size, name, payload. */
function customSection(name: string, payload: Buffer): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const body = Buffer.concat([leb128(nameBytes.length), nameBytes, payload]);
  return Buffer.concat([Buffer.from([0]), leb128(body.length), body]);
}

/**
 * A module shaped as a DuckDB-wasm extension: a WebAssembly header, a custom section naming it and
 * a trailing `duckdb_signature` section. Its signature is made up, so DuckDB refuses to load it.
 */
export function fakeExtension(name: string, signed = true): Buffer {
  const parts = [Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]), customSection('runpad_test', Buffer.from(`extension ${name}`))];
  if (signed) parts.push(customSection('duckdb_signature', Buffer.alloc(256, 7)));
  return Buffer.concat(parts);
}
