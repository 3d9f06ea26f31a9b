// A structural check of a DuckDB-wasm extension before it is mirrored. DuckDB's repository
// publishes no checksum; the engine itself checks each extension's signature when it loads it, in
// the browser. This catches earlier what would only fail there: an error page, a truncated file, a
// file that is not an extension. An extension is a WebAssembly module whose last section is the
// custom section "duckdb_signature" (DuckDB-wasm's extension format).

const MAGIC = Buffer.from([0x00, 0x61, 0x73, 0x6d]);
const SIGNATURE_SECTION = 'duckdb_signature';

/** An unsigned LEB128 integer at `offset`: its value and where the next field starts. */
function readLeb128(bytes, offset) {
  let value = 0;
  let shift = 0;
  for (let at = offset; at < bytes.length && shift < 35; at += 1) {
    value += (bytes[at] & 0x7f) * 2 ** shift;
    if ((bytes[at] & 0x80) === 0) return { value, next: at + 1 };
    shift += 7;
  }
  return null;
}

/** Null when `bytes` is a well-formed extension module ending in its signature; else what is wrong. */
export function extensionProblem(bytes) {
  if (bytes.length < 8 || !bytes.subarray(0, 4).equals(MAGIC)) return 'it is not a WebAssembly module';
  let offset = 8;
  let lastCustomName = null;
  while (offset < bytes.length) {
    const id = bytes[offset];
    const size = readLeb128(bytes, offset + 1);
    if (!size || size.next + size.value > bytes.length) return 'it is truncated (a section runs past the end of the file)';
    lastCustomName = null;
    if (id === 0) {
      const nameLength = readLeb128(bytes, size.next);
      if (nameLength && nameLength.next + nameLength.value <= size.next + size.value) {
        lastCustomName = bytes.subarray(nameLength.next, nameLength.next + nameLength.value).toString('utf8');
      }
    }
    offset = size.next + size.value;
  }
  if (lastCustomName !== SIGNATURE_SECTION) return `its last section is not DuckDB's signature (${SIGNATURE_SECTION})`;
  return null;
}
