import { describe, expect, it } from 'vitest';
import type { Output, RunResult } from '@/lib/runtime/protocol';
import { canonicalJson, comparables, compareOutputs, comparePixels, FigureUnavailableError, IMAGE_MATCH, type CompareDeps, type ImageRef, type Pixels } from './compare-outputs.client';

function run(outputs: Output[], status: RunResult['status'] = 'ok'): RunResult {
  return { status, outputs, durationMs: 10 };
}

function solid(width: number, height: number, rgba: [number, number, number, number]): Pixels & { data: Uint8ClampedArray } {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let p = 0; p < data.length; p += 4) data.set(rgba, p);
  return { width, height, data };
}

/** Images by their value: each test names the pixels behind a value. */
function loader(images: Record<string, Pixels>): CompareDeps & { loaded: ImageRef[] } {
  const loaded: ImageRef[] = [];
  return {
    loaded,
    loadPixels: async (image) => {
      loaded.push(image);
      const pixels = images[image.value];
      if (!pixels) throw new FigureUnavailableError({ kind: 'undecodable' });
      return pixels;
    },
  };
}

const noImages = loader({});
const stdout = (text: string): Output => ({ output_type: 'stream', name: 'stdout', text });
const png = (value: string, extra: Record<string, string> = {}): Output => ({ output_type: 'display_data', data: { 'image/png': value, 'text/plain': '<Chart>', ...extra } });
const table = (rows: Array<Record<string, number | string>>): Output => ({
  output_type: 'execute_result',
  data: {
    'application/vnd.dataresource+json': { schema: { fields: [{ name: 'region', type: 'string' }, { name: 'total', type: 'integer' }] }, data: rows, shape: [rows.length, 2] },
    'text/plain': 'a table',
  },
});

describe('comparables', () => {
  it('joins adjacent streams of the same name and keeps what the page shows of each bundle', () => {
    const items = comparables([
      stdout('a\n'),
      stdout('b\n'),
      { output_type: 'stream', name: 'stderr', text: 'warn\n' },
      stdout('c\n'),
      { output_type: 'display_data', data: { 'application/vnd.vegalite.v6+json': { mark: 'bar' }, 'image/png': 'AAAA' } },
      { output_type: 'display_data', data: { 'image/svg+xml': '<svg/>', 'image/png': 'AAAA' } },
    ]);
    expect(items.map((item) => item.kind)).toEqual(['stream', 'stream', 'stream', 'chart', 'svg']);
    expect(items[0]).toEqual({ kind: 'stream', name: 'stdout', text: 'a\nb\n' });
  });
});

describe('compareOutputs', () => {
  it('finds the same printing the same, however it was split and whatever trailing whitespace', async () => {
    expect(await compareOutputs(run([stdout('total: 3  \n'), stdout('done\n\n')]), run([stdout('total: 3\ndone\n')]), noImages)).toEqual({ same: true });
  });

  it('describes printed text that differs, with its line', async () => {
    const result = await compareOutputs(run([stdout('1700000000\n')]), run([stdout('1800000000\n')]), noImages);
    expect(result.same).toBe(false);
    expect(!result.same && result.differences[0]).toMatch(/^output 1 \(printed text\): line 1: expected "1700000000", got "1800000000"$/);
  });

  it('compares errors by name and message, not by traceback', async () => {
    const error = (evalue: string, line: number): Output => ({ output_type: 'error', ename: 'ZeroDivisionError', evalue, traceback: [`line ${line}`] });
    expect(await compareOutputs(run([error('division by zero', 1)], 'error'), run([error('division by zero', 2)], 'error'), noImages)).toEqual({ same: true });
    const other = await compareOutputs(run([error('division by zero', 1)], 'error'), run([error('float division by zero', 1)], 'error'), noImages);
    expect(other.same).toBe(false);
  });

  it('says when the status differs and when there are more or fewer outputs', async () => {
    const result = await compareOutputs(run([stdout('ok\n')]), run([stdout('ok\n'), { output_type: 'error', ename: 'NameError', evalue: "name 'x' is not defined", traceback: [] }], 'error'), noImages);
    expect(result).toEqual({ same: false, differences: ['it ended with an error; the recorded run finished', '1 output recorded, 2 outputs now'] });
  });

  it('compares tables by their data, whatever the key order of a row', async () => {
    const rows = [{ region: 'west', total: 50 }, { region: 'south', total: 30 }];
    const reordered = [{ total: 50, region: 'west' }, { total: 30, region: 'south' }];
    expect(await compareOutputs(run([table(rows)]), run([table(reordered)]), noImages)).toEqual({ same: true });
    const changed = await compareOutputs(run([table(rows)]), run([table([rows[0], { region: 'south', total: 31 }])]), noImages);
    expect(!changed.same && changed.differences).toEqual(['output 1 (a table): row 2 differs']);
    const fewer = await compareOutputs(run([table(rows)]), run([table([rows[0]])]), noImages);
    expect(!fewer.same && fewer.differences).toEqual(['output 1 (a table): 2 rows recorded, 1 now']);
  });

  it('compares charts by spec (not by the PNG made for the model) and diagrams by their SVG text', async () => {
    const chart = (spec: Record<string, unknown>, withPng: boolean): Output => ({
      output_type: 'display_data',
      data: { 'application/vnd.vegalite.v6+json': spec, ...(withPng ? { 'image/png': 'blob:' + 'a'.repeat(64) } : {}) },
    });
    const spec = { mark: 'bar', encoding: { x: { field: 'a' }, y: { field: 'b' } } };
    expect(await compareOutputs(run([chart(spec, true)]), run([chart({ encoding: { y: { field: 'b' }, x: { field: 'a' } }, mark: 'bar' }, false)]), noImages)).toEqual({ same: true });
    expect((await compareOutputs(run([chart(spec, true)]), run([chart({ ...spec, mark: 'line' }, false)]), noImages)).same).toBe(false);
    const svg = (text: string): Output => ({ output_type: 'display_data', data: { 'image/svg+xml': text, 'image/png': 'AAAA' } });
    expect(await compareOutputs(run([svg('<svg>\n<g/>\n</svg>\n')]), run([svg('<svg>\n<g/>\n</svg>')]), noImages)).toEqual({ same: true });
    expect((await compareOutputs(run([svg('<svg><g id="a"/></svg>')]), run([svg('<svg><g id="b"/></svg>')]), noImages)).same).toBe(false);
    expect(noImages.loaded).toEqual([]);
  });

  it('compares DOT from Python by its source: the recorded drawing (SVG, PNG) is not in a re-run', async () => {
    const recorded: Output = { output_type: 'display_data', data: { 'text/vnd.graphviz': 'digraph { a -> b }', 'image/svg+xml': '<svg/>', 'image/png': 'UE5H', 'text/plain': '<Graphviz diagram, 10×20>' } };
    const again: Output = { output_type: 'display_data', data: { 'text/vnd.graphviz': 'digraph { a -> b }', 'text/plain': '<Graphviz diagram>' } };
    const changed: Output = { output_type: 'display_data', data: { 'text/vnd.graphviz': 'digraph { a -> c }', 'text/plain': '<Graphviz diagram>' } };
    expect(await compareOutputs(run([recorded]), run([again]), noImages)).toEqual({ same: true });
    expect((await compareOutputs(run([recorded]), run([changed]), noImages)).same).toBe(false);
  });

  it('compares figures as pixels: the stored blob against the new base64 bytes', async () => {
    const stored = 'blob:' + 'b'.repeat(64);
    const deps = loader({ [stored]: solid(4, 4, [255, 255, 255, 255]), AAAA: solid(4, 4, [250, 252, 255, 255]), BBBB: solid(4, 4, [0, 0, 0, 255]) });
    expect(await compareOutputs(run([png(stored)]), run([png('AAAA')]), deps)).toEqual({ same: true });
    expect(deps.loaded).toEqual([
      { value: stored, mediaType: 'image/png' },
      { value: 'AAAA', mediaType: 'image/png' },
    ]);
    const other = await compareOutputs(run([png(stored)]), run([png('BBBB')]), deps);
    expect(!other.same && other.differences).toEqual(['output 1 (a figure): 100.0% of pixels differ']);
  });

  it('calls a figure that cannot be decoded different, saying so', async () => {
    const result = await compareOutputs(run([png('AAAA')]), run([png('CCCC')]), loader({ AAAA: solid(1, 1, [0, 0, 0, 255]) }));
    expect(!result.same && result.differences[0]).toBe('output 1 (a figure): could not be compared (not an image this browser can decode)');
  });

  it("does not swallow a loader's own fault as a difference", async () => {
    const broken: CompareDeps = { loadPixels: async () => { throw new TypeError('loader bug'); } };
    await expect(compareOutputs(run([png('AAAA')]), run([png('CCCC')]), broken)).rejects.toThrow('loader bug');
  });

  it('says when an output is of another kind, and describes at most three differences', async () => {
    const recorded = run([stdout('a\n'), png('AAAA'), stdout('b\n'), { output_type: 'display_data', data: { 'text/plain': 'x' } }, { output_type: 'display_data', data: { 'text/plain': 'y' } }]);
    const replayed = run([stdout('z\n'), { output_type: 'display_data', data: { 'text/plain': 'not a figure' } }, stdout('c\n'), { output_type: 'display_data', data: { 'text/plain': 'w' } }, { output_type: 'display_data', data: { 'text/plain': 'v' } }]);
    const result = await compareOutputs(recorded, replayed, noImages);
    expect(!result.same && result.differences).toEqual([
      'output 1 (printed text): line 1: expected "a", got "z"',
      'output 2 (a figure): was a figure, now text',
      'output 3 (printed text): line 1: expected "b", got "c"',
    ]);
  });

  it('compares files a run wrote by name, type and size', async () => {
    const file = (size: number, ref?: string): Output => ({ output_type: 'file', name: 'result.csv', size, mediaType: 'text/csv', ...(ref ? { ref } : {}) });
    expect(await compareOutputs(run([file(10, 'blob:' + 'c'.repeat(64))]), run([file(10)]), noImages)).toEqual({ same: true });
    expect((await compareOutputs(run([file(10)]), run([file(11)]), noImages)).same).toBe(false);
  });
});

describe('comparePixels', () => {
  it('allows a small difference per channel, and a small fraction of pixels beyond it', () => {
    const base = solid(100, 100, [10, 20, 30, 255]);
    expect(comparePixels(base, solid(100, 100, [10 + IMAGE_MATCH.channelTolerance, 20, 30, 255]))).toBeNull();
    expect(comparePixels(base, solid(100, 100, [10 + IMAGE_MATCH.channelTolerance + 1, 20, 30, 255]))).toBe('100.0% of pixels differ');
    const fewPixels = solid(100, 100, [10, 20, 30, 255]);
    const allowed = Math.floor(100 * 100 * IMAGE_MATCH.maxDifferingFraction);
    for (let p = 0; p < allowed; p++) fewPixels.data[p * 4] = 200;
    expect(comparePixels(base, fewPixels)).toBeNull();
    fewPixels.data[allowed * 4] = 200;
    expect(comparePixels(base, fewPixels)).toBe('0.11% of pixels differ');
  });

  it('compares transparency too, and the size first', () => {
    expect(comparePixels(solid(2, 2, [0, 0, 0, 0]), solid(2, 2, [0, 0, 0, 255]))).toBe('100.0% of pixels differ');
    expect(comparePixels(solid(360, 200, [0, 0, 0, 255]), solid(400, 200, [0, 0, 0, 255]))).toBe('360×200 recorded, 400×200 now');
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
  });
});
