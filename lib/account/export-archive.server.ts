/**
 * "Export everything": one zip with every conversation the person owns as a Jupyter notebook
 * (the notebook exporter, lib/notebook) and its files beside it, streamed as it is written:
 *   runpad-export/<title>-<id8>/<title>.ipynb
 *   runpad-export/<title>-<id8>/data/<file name>   (the notebook reads ./data/, so the folder runs)
 * Files are stored as they are (no compression: most are already compressed or small); a file
 * whose bytes are missing from the blob store, or that is kept on its owner's device (never
 * uploaded, never read from the store: lib/files/download-files.server.ts), is left out and named
 * in MISSING.txt.
 */
import 'server-only';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { getBlobStore } from '@/lib/files/app-blob-store.server';
import { getDb } from '@/lib/db/client.server';
import { listConversations } from '@/lib/db/queries/conversations.server';
import { downloadFiles } from '@/lib/files/download-files.server';
import { loadConversationExport } from '@/lib/notebook/load-export.server';
import { isAppError } from '@/lib/errors.server';
import { notebookFileName, toNotebook } from '@/lib/notebook/to-ipynb.server';

const ROOT = 'runpad-export';

/** A name safe as one path segment in an archive. */
function segment(name: string): string {
  const cleaned = name.replace(/[\\/\u0000-\u001f]/g, '_').replace(/^\.+/, '_').trim();
  return cleaned.slice(0, 120) || '_';
}

async function allConversationIds(userId: string): Promise<Array<{ id: string; title: string | null }>> {
  const db = await getDb();
  const found: Array<{ id: string; title: string | null }> = [];
  let cursor: string | null = null;
  do {
    const page = await listConversations(db, userId, { limit: 100, cursor });
    found.push(...page.items.map((item) => ({ id: item.id, title: item.title })));
    cursor = page.nextCursor;
  } while (cursor);
  return found;
}

export function exportArchive(userId: string): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const zip = new Zip((error, chunk, final) => {
        if (error) return controller.error(error);
        controller.enqueue(chunk);
        if (final) controller.close();
      });
      try {
        const db = await getDb();
        const store = await getBlobStore();
        const missing: string[] = [];
        const onDevice: string[] = [];
        for (const conversation of await allConversationIds(userId)) {
          // Deleted meanwhile: the same 404 as any other; it is left out.
          const source = await loadConversationExport({ userId, kind: 'account' }, conversation.id).catch((error: unknown) => {
            if (isAppError(error) && error.code === 'conversation:not_found') return null;
            throw error;
          });
          if (!source) continue;
          const folder = `${ROOT}/${segment(`${(conversation.title ?? 'Untitled').slice(0, 60)}-${conversation.id.slice(0, 8)}`)}`;
          const notebook = new ZipDeflate(`${folder}/${segment(notebookFileName(source.title))}`, { level: 6 });
          zip.add(notebook);
          notebook.push(new TextEncoder().encode(`${JSON.stringify(await toNotebook(source), null, 1)}\n`), true);
          for (const file of await downloadFiles(db, store, userId, conversation.id)) {
            const path = `${folder}/data/${segment(file.name)}`;
            if (file.read === null) {
              onDevice.push(path);
              continue;
            }
            const bytes = await file.read();
            if (!bytes) {
              missing.push(path);
              continue;
            }
            const entry = new ZipPassThrough(path);
            zip.add(entry);
            for await (const chunk of bytes) entry.push(chunk);
            entry.push(new Uint8Array(0), true);
          }
        }
        if (missing.length > 0 || onDevice.length > 0) {
          const note = new ZipDeflate(`${ROOT}/MISSING.txt`);
          zip.add(note);
          const lines = [
            ...(missing.length > 0 ? ["These files' contents were no longer stored:", ...missing] : []),
            ...(onDevice.length > 0 ? ["These files are kept on the device that added them, never uploaded: copy each from that device to its place here:", ...onDevice] : []),
          ];
          note.push(new TextEncoder().encode(`${lines.join('\n')}\n`), true);
        }
        zip.end();
      } catch (error) {
        controller.error(error);
      }
    },
  });
}
