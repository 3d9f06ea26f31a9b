/**
 * R conversations exported: R only → an .R script with the R as written; in notebooks (and in a
 * script beside Python) an R cell is Python that hands the exact R source to Rscript.
 */
import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '@/lib/db/queries/messages.server';
import { stdlibPython } from '@/lib/testing/python-env';
import { scriptFormat, toScript } from './to-script.server';
import { toNotebook } from './to-ipynb.server';
import { scriptForm, scriptLanguage } from './script-language';

const R_CODE = 'fit <- lm(mpg ~ wt, data = mtcars)\nprint(summary(fit))\ncat("he said \\"\'\'\'ok\'\'\'\\"\\n")';

const call = (toolCallId: string, type: string, code: string) => ({
  type,
  toolCallId,
  state: 'output-available',
  input: { code },
  output: { status: 'ok', durationMs: 3, outputs: [{ output_type: 'stream', name: 'stdout', text: 'Coefficients:\n' }] },
});

const conversation = (...parts: unknown[]): StoredMessage[] => [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Fit mpg on weight in R.' }] },
  { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Fitting.' }, ...parts] },
] as StoredMessage[];

const resolveImage = async () => null;

describe('exporting an R conversation', () => {
  it('R only: an .R script in percent cells, the talk as comments, the code as written', () => {
    const source = { title: 'mpg model', messages: conversation(call('r1', 'tool-r', R_CODE)) };
    expect(scriptFormat(source)).toEqual({ fileName: 'mpg-model.R', contentType: 'text/x-r-source; charset=utf-8' });
    const script = toScript(source);
    expect(script).toContain('as an R script');
    expect(script).toContain(`# %%\n${R_CODE}`);
    expect(script).toContain('# Fit mpg on weight in R.');
    expect(script).not.toContain('# R run');
    // No Python in an R script: the check cell of notebooks is left out.
    expect(script).not.toContain('_runpad');
  });

  it('the Download menu says R script (.R) from the same messages the route names the file by; a call cut off before its code does not count, any other target does', () => {
    const cutOff = { type: 'tool-python', toolCallId: 'p0', state: 'input-streaming', input: {} };
    const rOnly = conversation(call('r1', 'tool-r', R_CODE), cutOff);
    expect(scriptLanguage(rOnly)).toBe('r');
    expect(scriptForm(scriptLanguage(rOnly)).label).toBe('R script (.R)');
    expect(scriptFormat({ title: 'x', messages: rOnly }).fileName).toBe('x.R');
    const mixed = conversation(call('r1', 'tool-r', R_CODE), call('g1', 'tool-graphviz', 'digraph {}'));
    expect(scriptLanguage(mixed)).toBe('python');
    expect(scriptFormat({ title: 'x', messages: mixed }).fileName).toBe('x.py');
    // Only a target without a script form of its own (Graphviz): its cells' Python forms, a .py.
    expect(scriptLanguage(conversation(call('g1', 'tool-graphviz', 'digraph {}')))).toBe('python');
    // No run at all: a Python script, as before R existed.
    expect(scriptLanguage(conversation())).toBe('python');
  });

  it('a notebook (Python kernel) whose R cell passes the exact R source to Rscript, with the stored outputs', async () => {
    const notebook = await toNotebook({ title: 'mpg model', messages: conversation(call('r1', 'tool-r', R_CODE)), resolveImage });
    const code = notebook.cells.filter((cell) => cell.cell_type === 'code' && cell.id !== 'runpad-requirements');
    expect(code).toHaveLength(1);
    expect(code[0].source.join('')).toContain('Rscript');
    expect(JSON.stringify(code[0])).toContain('Coefficients:');
  });

  it('R beside Python: a .py script, and the R cell\'s literal reads back as the exact R source', async () => {
    const source = { title: null, messages: conversation(call('p1', 'tool-python', 'print(1)'), call('r1', 'tool-r', R_CODE)) };
    expect(scriptFormat(source).fileName).toBe('runpad-conversation.py');
    const notebook = await toNotebook({ ...source, resolveImage });
    const rCell = notebook.cells.filter((cell) => cell.cell_type === 'code')[2].source.join('');
    expect(rCell).toContain('Rscript');
    // The literal is Python that evaluates to the R source, character for character.
    const literal = rCell.split('\n')[0].replace(/^_runpad_r = /, '');
    const decoded = stdlibPython(['-c', `import sys; sys.stdout.write(${literal})`]);
    expect(decoded).toBe(R_CODE);
    expect(toScript(source)).toContain('# R run');
  });
});
