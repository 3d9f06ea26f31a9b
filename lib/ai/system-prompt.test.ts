import { describe, expect, it } from 'vitest';
import { TARGET_LIST } from '@/lib/targets/registry';
import { buildSystemPrompt } from './system-prompt.server';

describe('buildSystemPrompt', () => {
  it('lists the packages that can be imported when the browser can download them', () => {
    const prompt = buildSystemPrompt({ packages: ['numpy', 'pandas'], stepBudget: 8 });
    expect(prompt).toContain('loaded automatically on import): numpy, pandas.');
    expect(prompt).not.toContain('Only the standard library');
  });

  it('tells the model to do without packages when the browser cannot download them, and offers what works', () => {
    const prompt = buildSystemPrompt({ packages: ['numpy', 'pandas'], packageSources: { python: 'unreachable' }, stepBudget: 8 });
    expect(prompt).toContain('Only the standard library is available');
    expect(prompt).not.toContain('numpy, pandas.');
    expect(prompt).toMatch(/Vega-Lite/);
    expect(prompt).toMatch(/`graphviz` tool/);
  });

  it('tells the model what the page found of R’s package repository: base R only when it does not answer', () => {
    const rLine = (prompt: string) => prompt.split('\n').find((line) => line.startsWith('- `r` '))!;
    const unreachable = rLine(buildSystemPrompt({ packages: [], packageSources: { r: 'unreachable' }, stepBudget: 8 }));
    expect(unreachable).toContain('The R package repository does not answer');
    expect(unreachable).toContain('do not call library() or install.packages()');
    expect(unreachable).toContain('use base R');
    const reachable = rLine(buildSystemPrompt({ packages: [], packageSources: { r: 'reachable' }, stepBudget: 8 }));
    expect(reachable).toContain('downloaded from the R package repository on library()');
    expect(reachable).not.toContain('does not answer');
    // Before R has started the page has not asked: neither promised nor ruled out.
    const unknown = rLine(buildSystemPrompt({ packages: [], stepBudget: 8 }));
    expect(unknown).toContain('when it answers');
    expect(unknown).toContain('do not retry, use base R');
    // Python's words are its own source's: R's repository not answering says nothing of Python's.
    expect(buildSystemPrompt({ packages: ['numpy'], packageSources: { r: 'unreachable' }, stepBudget: 8 })).toContain('loaded automatically on import): numpy.');
  });

  it('says one thing of each package: with no package source, no line offers matplotlib or pandas', () => {
    const mentions = (prompt: string, name: string) => prompt.split('\n').filter((line) => new RegExp(`\\b${name}\\b`, 'i').test(line));
    const unreachable = buildSystemPrompt({ packages: ['numpy', 'pandas', 'matplotlib'], packageSources: { python: 'unreachable' }, stepBudget: 8 });
    for (const name of ['matplotlib', 'pandas', 'numpy']) {
      const lines = mentions(unreachable, name);
      expect(lines, name).toHaveLength(1);
      expect(lines[0]).toContain('do not import');
    }
    const reachable = buildSystemPrompt({ packages: ['numpy', 'pandas', 'matplotlib'], stepBudget: 8 });
    expect(reachable).not.toContain('do not import');
    expect(mentions(reachable, 'matplotlib').length).toBeGreaterThan(1); // listed, and how its figures are shown
  });

  it('tells the model how Python draws DOT', () => {
    expect(buildSystemPrompt({ packages: [], stepBudget: 8 })).toContain("display({'text/vnd.graphviz': dot_source}, raw=True)");
  });

  it('tells the model about every target of the registry, and in blocks mode the tag of each', () => {
    const tools = buildSystemPrompt({ packages: [], stepBudget: 8 });
    const blocks = buildSystemPrompt({ packages: [], stepBudget: 8, codeMode: 'blocks' });
    for (const target of TARGET_LIST) {
      expect(tools).toContain(`\`${target.toolName}\``);
      expect(blocks).toContain(`\`${target.blockTags[0]}\``);
    }
    expect(blocks).toMatch(/tagged `python`, (`[\w-]+`, )*`sql`(, `[\w-]+`)* or `[\w-]+`:/);
    expect(blocks).toMatch(/The `python`, (`[\w-]+`, )*`sql`.* and `[\w-]+` tools described below are the blocks tagged python, sql.* and [\w-]+\./);
  });

  it('says how each data format is read in this install, with sql() and no package', () => {
    const prompt = buildSystemPrompt({ packages: [], packageSources: { python: 'unreachable' }, stepBudget: 8 });
    const line = prompt.split('\n').find((l) => l.includes('Tabular files in /data/'));
    expect(line).toContain("SELECT * FROM '/data/x.parquet'");
    expect(line).toContain("read_xlsx('/data/x.xlsx')");
    expect(line).toContain('JSON Lines');
    expect(line).not.toMatch(/pandas|openpyxl|pyarrow/);
  });
});
