/** The Python target (server-safe): Python 3 in Pyodide, the conversation's interpreter. */
import { PYTHON_MIME_TYPES } from '@/lib/runtime/mime-types';
import { pythonWorker } from '@/lib/security/csp';
import { codeInputSchema, defineTarget } from '../target';
import { pythonBootScriptUrl } from './worker-url';

export const python = defineTarget({
  id: 'python',
  toolName: 'python',
  inputSchema: codeInputSchema,
  name: 'Python',
  label: 'Python',
  fence: 'python',
  blockTags: ['python', 'py', 'python3'],
  description:
    "Run Python 3 code in the user's browser (Pyodide) and get back what it printed, displayed and raised. " +
    'State persists between calls. Print or display() what matters; the last expression of the code is shown too. ' +
    'Matplotlib figures are captured automatically. Files uploaded by the user are in /data; write files for the user to /output/. ' +
    'No network access and no pip.',
  prompt: "runs Python 3 in the user's browser (details below).",
  mimeTypes: PYTHON_MIME_TYPES,
  stateful: true,
  engine: 'pyodide',
  replay: 'replay',
  // A Python cell is itself.
  notebook: {
    cellSource: (code) => code,
    readsFiles: true,
    script: { extension: '.py', contentType: 'text/x-python; charset=utf-8', label: 'Python script (.py)', kind: 'a Python script' },
  },
  workers: [pythonWorker],
  bootScript: pythonBootScriptUrl,
  diagrams: false,
});
