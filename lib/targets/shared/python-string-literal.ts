/**
 * Python string literals for the code the exporters write: every target's notebook form is Python
 * (a Jupyter notebook's kernel), and each wraps its code or its messages in one of these.
 */

/** A Python `str` literal for `text` that reads back exactly as `text`, whatever it contains. */
export function pythonStringLiteral(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    const code = text.charCodeAt(i);
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      // A well-formed pair is one astral character: written as is (UTF-8 in the file).
      out += ch + text[i + 1];
      i += 1;
    } else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0xd800 && code <= 0xdfff) || code === 0x2028 || code === 0x2029 || code === 0xfeff) {
      // Control characters, lone surrogates and line/paragraph separators: escaped, so the
      // source stays one line for every tool that splits lines differently than Python does.
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
