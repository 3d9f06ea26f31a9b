import { describe, expect, it } from 'vitest';
import { sanitizeFileName } from './accept';
import { servingHeaders, storableMediaType } from './media-types.server';

describe('what the app serves inline', () => {
  it('serves active content (HTML, SVG, XHTML, XML) as a download, never inline', () => {
    for (const type of ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/xml', 'application/javascript', 'application/octet-stream']) {
      const headers = servingHeaders(type);
      expect(headers['content-type']).toBe('application/octet-stream');
      expect(headers['content-disposition']).toMatch(/^attachment/);
      expect(headers['x-content-type-options']).toBe('nosniff');
    }
  });
  it('serves images, text and data inline', () => {
    expect(servingHeaders('image/png')).toMatchObject({ 'content-type': 'image/png', 'content-disposition': 'inline' });
    expect(servingHeaders('text/csv')['content-type']).toBe('text/csv; charset=utf-8');
  });
  it('records only known media types for files a run wrote', () => {
    expect(storableMediaType('text/html')).toBe('application/octet-stream');
    expect(storableMediaType('IMAGE/PNG; x=1')).toBe('image/png');
    expect(storableMediaType('text/csv')).toBe('text/csv');
    expect(storableMediaType(null)).toBe('application/octet-stream');
  });
});

describe('file names', () => {
  it('lose bidirectional and zero-width characters that disguise them', () => {
    expect(sanitizeFileName('report\u202Egpj.exe')).toBe('reportgpj.exe');
    expect(sanitizeFileName('a\u200Bb\u2066c.csv')).toBe('abc.csv');
  });
});
