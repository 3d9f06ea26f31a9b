import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '@/lib/db/queries/messages.server';
import { exportBundle, type BundleFile } from './bundle.server';

/**
 * The zip's README says what became of each file: one kept on its owner's device (never uploaded)
 * is named as such, with what to do, and never as a file whose contents "were no longer stored".
 */
const stream = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });

async function readmeOf(files: BundleFile[]): Promise<{ readme: string; entries: string[] }> {
  const messages = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Totals, please.' }] }] as unknown as StoredMessage[];
  const bytes = new Uint8Array(await new Response(exportBundle({ title: 'Ventas «2026»', messages, resolveImage: async () => null }, files)).arrayBuffer());
  const unpacked = unzipSync(bytes);
  const readme = Object.entries(unpacked).find(([name]) => name.endsWith('/README.md'));
  if (!readme) throw new Error('no README.md in the zip');
  return { readme: new TextDecoder().decode(readme[1]), entries: Object.keys(unpacked) };
}

describe("the zip's README", () => {
  it("names a device-kept file as kept on its owner's device, a gone one as no longer stored, and holds neither in data/", async () => {
    const { readme, entries } = await readmeOf([
      { name: 'sales.csv', read: async () => stream('a,b\n1,2\n') },
      { name: 'big «1 GB».parquet', read: null },
      { name: 'gone.json', read: async () => null },
    ]);
    const [kept, gone] = readme.split("These files' contents were no longer stored");
    expect(kept).toContain("These files are kept on their owner's device, never uploaded, so they are not in `data/`: put your copy there under the same name:");
    expect(kept).toContain('- big «1 GB».parquet');
    expect(gone).toContain('- gone.json');
    expect(gone).not.toContain('big «1 GB».parquet');
    expect(entries.some((name) => name.endsWith('/data/sales.csv'))).toBe(true);
    expect(entries.some((name) => name.includes('big «1 GB»') || name.endsWith('/data/gone.json'))).toBe(false);
  });

  it('says nothing was lost when only device-kept files are left out', async () => {
    const { readme } = await readmeOf([{ name: 'kept.xlsx', read: null }]);
    expect(readme).toContain("kept on their owner's device");
    expect(readme).not.toContain('no longer stored');
  });
});
