/**
 * "Download with data": one zip that runs where it is unpacked, streamed as it is written:
 *   <name>/<name>.ipynb     the notebook (lib/notebook/to-ipynb.server.ts), with Runpad's outputs
 *   <name>/<name>.py|.R     the script (lib/notebook/to-script.server.ts)
 *   <name>/data/<file>      the conversation's files and the project's datasets it used, which the code reads as ./data/<file>
 *   <name>/requirements.txt the Python packages the code imports (lib/notebook/requirements.ts)
 *   <name>/README.md        what is in it and how to run it
 * Data files are stored as they are (most are compressed already or small); a file whose bytes
 * are no longer stored, or that is kept on its owner's device (never uploaded), is left out and
 * named in the README.
 */
import 'server-only';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { conversationCells, exportFileName, exportNeeds, notebookFileName, toNotebook } from './to-ipynb.server';
import { requirementsTxt } from './requirements';
import { scriptFormat, toScript } from './to-script.server';
import type { StoredMessage } from '@/lib/db/queries/messages.server';
import type { DownloadFile } from '@/lib/files/download-files.server';

export type BundleSource = {
  title: string | null;
  messages: StoredMessage[];
  resolveImage: (sha256: string) => Promise<string | null>;
};

/** A data file of the conversation (lib/files/download-files.server.ts): its stored bytes, or none when it is kept on its owner's device. */
export type BundleFile = DownloadFile;

export function bundleFileName(title: string | null): string {
  return exportFileName(title, '.zip');
}

/** A file name safe as one path segment of the archive (no folders, no control characters, not hidden). */
export function dataEntryName(name: string): string {
  const cleaned = name.replace(/[\\/\u0000-\u001f\u007f]/g, '_').replace(/^\.+/, '_').trim();
  return cleaned.slice(0, 200) || '_';
}

function readme(input: { title: string | null; notebook: string; script: string; rScript: boolean; requirements: string; files: string[]; missing: string[]; onDevice: string[]; programs: readonly string[] }): string {
  const lines = [
    `# ${input.title?.replace(/\s+/g, ' ').trim() || 'Runpad conversation'}`,
    '',
    'Exported from Runpad with its data. In this folder:',
    '',
    `- \`${input.notebook}\`: the conversation as a Jupyter notebook, with the outputs it had in Runpad.`,
    `- \`${input.script}\`: the same code as a script.`,
    input.files.length > 0
      ? `- \`data/\`: the conversation's files and its project's datasets it used (${input.files.length}). Runpad kept them under \`/data/\`; the code here reads \`./data/\`.`
      : '- `data/`: empty; the conversation had no files.',
    `- \`requirements.txt\`: the Python packages the code uses${input.requirements ? '' : ' (none beyond the standard library)'}.`,
    '',
    '## Run it',
    '',
    'From this folder:',
    '',
    '```sh',
    'pip install -r requirements.txt jupyter',
    `jupyter nbconvert --to notebook --execute --allow-errors ${input.notebook}   # or open it in Jupyter and Run All`,
    input.rScript ? `Rscript ${input.script}` : `python ${input.script}`,
    '```',
    '',
    'The first code cell says what is missing and how to install it; the cells that need it fail saying so, the others run.',
  ];
  lines.push(...input.programs);
  if (input.onDevice.length > 0) lines.push('', "These files are kept on their owner's device, never uploaded, so they are not in `data/`: put your copy there under the same name:", ...input.onDevice.map((name) => `- ${name}`));
  if (input.missing.length > 0) lines.push('', "These files' contents were no longer stored, so they are not in `data/`:", ...input.missing.map((name) => `- ${name}`));
  return `${lines.join('\n')}\n`;
}

export function exportBundle(source: BundleSource, files: readonly BundleFile[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const zip = new Zip((error, chunk, final) => {
        if (error) return controller.error(error);
        controller.enqueue(chunk);
        if (final) controller.close();
      });
      const addText = (path: string, text: string) => {
        const entry = new ZipDeflate(path, { level: 6 });
        zip.add(entry);
        entry.push(encoder.encode(text), true);
      };
      try {
        const folder = exportFileName(source.title, '');
        const notebook = notebookFileName(source.title);
        const script = scriptFormat(source);
        const needs = exportNeeds(conversationCells(source));
        const requirements = requirementsTxt(needs);
        addText(`${folder}/${notebook}`, `${JSON.stringify(await toNotebook(source), null, 1)}\n`);
        addText(`${folder}/${script.fileName}`, toScript(source));
        addText(`${folder}/requirements.txt`, requirements);
        const written: string[] = [];
        const missing: string[] = [];
        const onDevice: string[] = [];
        const taken = new Set<string>();
        for (const file of files) {
          const name = dataEntryName(file.name);
          if (taken.has(name)) continue;
          if (file.read === null) {
            onDevice.push(name);
            continue;
          }
          const bytes = await file.read();
          if (!bytes) {
            missing.push(name);
            continue;
          }
          taken.add(name);
          const entry = new ZipPassThrough(`${folder}/data/${name}`);
          zip.add(entry);
          for await (const chunk of bytes) entry.push(chunk);
          entry.push(new Uint8Array(0), true);
          written.push(name);
        }
        if (written.length === 0) {
          // The folder the code reads, even empty.
          const dir = new ZipPassThrough(`${folder}/data/`);
          zip.add(dir);
          dir.push(new Uint8Array(0), true);
        }
        addText(
          `${folder}/README.md`,
          readme({ title: source.title, notebook, script: script.fileName, rScript: script.fileName.endsWith('.R'), requirements, files: written, missing, onDevice, programs: needs.programs.map(({ program }) => program.readme) }),
        );
        zip.end();
      } catch (error) {
        controller.error(error);
      }
    },
  });
}
