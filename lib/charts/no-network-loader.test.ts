import { describe, expect, it } from 'vitest';
import { noNetworkLoader, UrlRefusedError } from './no-network-loader.client';

describe('noNetworkLoader', () => {
  it('refuses every kind of request and remembers the URLs', async () => {
    const { loader, refused } = noNetworkLoader();
    await expect(loader.load('https://example.com/data.csv')).rejects.toBeInstanceOf(UrlRefusedError);
    await expect(loader.sanitize('https://example.com/i.png', { context: 'image' })).rejects.toThrow(/may not load/);
    await expect(loader.http('/api/conversations', {})).rejects.toThrow(UrlRefusedError);
    await expect(loader.file('/etc/passwd')).rejects.toThrow(UrlRefusedError);
    expect(refused).toEqual(['https://example.com/data.csv', 'https://example.com/i.png', '/api/conversations', '/etc/passwd']);
  });

  it('gives Vega no URL to fall back on: an image whose load fails takes its src from the error\'s `url`', async () => {
    const { loader } = noNetworkLoader();
    const error: unknown = await loader.sanitize('https://example.com/i.png', { context: 'image' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UrlRefusedError);
    expect((error as { url?: unknown }).url).toBeUndefined();
  });
});
