import { describe, expect, it } from 'vitest';
import { packageNoticeSummary, packageNoticeText, sourceHost } from './package-source-words';

describe('the package notice’s words', () => {
  it('says nothing while every source answers or has not been asked', () => {
    expect(packageNoticeText({})).toBeNull();
  });

  it('Python’s source alone: the standard library still works, and what else does', () => {
    const text = packageNoticeText({ python: 'cdn.jsdelivr.net' });
    expect(text).toBe(
      'Extra Python packages (numpy, pandas, matplotlib…) can’t be downloaded right now: cdn.jsdelivr.net isn’t answering. Code still runs with Python’s standard library, and tables, interactive charts, SQL and diagrams still work.',
    );
    expect(text).not.toMatch(/\bR\b/);
  });

  it('R’s repository alone: names R’s packages and its host, and says base R still runs', () => {
    const text = packageNoticeText({ r: 'repo.r-wasm.org' });
    expect(text).toBe('Extra R packages (ggplot2, dplyr…) can’t be downloaded right now: repo.r-wasm.org isn’t answering. R code still runs with base R (stats, graphics, utils).');
    expect(text).not.toContain('Python');
  });

  it('both: one sentence naming both hosts (once when they are the same) and both fallbacks', () => {
    expect(packageNoticeText({ python: 'cdn.jsdelivr.net', r: 'repo.r-wasm.org' })).toBe(
      'Extra Python packages (numpy, pandas, matplotlib…) and extra R packages (ggplot2, dplyr…) can’t be downloaded right now: cdn.jsdelivr.net and repo.r-wasm.org aren’t answering. Code still runs with Python’s standard library and base R, and tables, interactive charts, SQL and diagrams still work.',
    );
    expect(packageNoticeText({ python: 'mirror.example', r: 'mirror.example' })).toContain('mirror.example isn’t answering.');
  });

  it('says it in one short line, naming which packages, with the detail behind it', () => {
    expect(packageNoticeSummary({})).toBeNull();
    expect(packageNoticeSummary({ python: 'cdn.jsdelivr.net' })).toBe('Extra Python packages can’t be downloaded');
    expect(packageNoticeSummary({ r: 'repo.r-wasm.org' })).toBe('Extra R packages can’t be downloaded');
    expect(packageNoticeSummary({ python: 'a', r: 'b' })).toBe('Extra Python and R packages can’t be downloaded');
  });

  it('names a source by its host; a relative URL is the site’s own mirror', () => {
    expect(sourceHost('https://repo.r-wasm.org/', 'x')).toBe('repo.r-wasm.org');
    expect(sourceHost('/pyodide/packages/', 'this site’s package mirror')).toBe('this site’s package mirror');
  });
});
