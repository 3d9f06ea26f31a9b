import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DISPLAY_MIME_TYPES, PYTHON_MIME_TYPES } from './mime-types';
import { mimeBundleSchema } from './protocol';

/** The Python copy, read by CPython itself (the file has no imports, so it runs outside Pyodide). */
function pythonList(name: string): string[] {
  const script = `import json, runpy; print(json.dumps(list(runpy.run_path("lib/targets/python/engine/runpad/mime_types.py")["${name}"])))`;
  return JSON.parse(execFileSync('python3', ['-c', script], { encoding: 'utf8' })) as string[];
}

describe('the display MIME types', () => {
  it('Python passes on exactly the types the list marks fromPython, in the same order', () => {
    expect(pythonList('FROM_PYTHON')).toEqual([...PYTHON_MIME_TYPES]);
  });

  it("Python's groups are parts of that list", () => {
    for (const name of ['IMAGE_TYPES', 'VEGALITE_TYPES', 'TEXT_TYPES']) {
      for (const type of pythonList(name)) expect(PYTHON_MIME_TYPES).toContain(type);
    }
  });

  it('the bundle schema knows every listed type and no other', () => {
    expect(Object.keys(mimeBundleSchema.shape).sort()).toEqual(DISPLAY_MIME_TYPES.map((entry) => entry.type).sort());
  });

  it('drops a type that is not listed (HTML from a run is never kept)', () => {
    const parsed = mimeBundleSchema.parse({ 'text/plain': 'x', 'text/html': '<script>alert(1)</script>' });
    expect(parsed).toEqual({ 'text/plain': 'x' });
  });
});
