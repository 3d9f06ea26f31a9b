import { notFound } from 'next/navigation';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { captureAppLog, type LogLine } from '@/lib/testing/captured-log';

vi.mock('server-only', () => ({}));
const { withPageErrors } = await import('./page-errors.server');

let lines: LogLine[] = [];
beforeEach(() => {
  lines = captureAppLog();
});

/** As Drizzle makes it when the database is down: its parameters in its message, the driver's error as cause. */
function failedQuery(parameter: string) {
  const driver = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  return Object.assign(new Error(`Failed query: select * from shares where id = $1\nparams: ${parameter}`, { cause: driver }), { params: [parameter] });
}

describe('a page’s server-side failure', () => {
  it('is logged once through the app’s log, without its data, and Next gets only the words', async () => {
    const page = withPageErrors('share', async (props: { shareId: string }) => {
      throw failedQuery(props.shareId);
    });
    const thrown = await page({ shareId: 'the-share-capability' }).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(thrown?.message).toBe('The database cannot be reached right now; nothing was stored. Retry in a moment.');
    expect(JSON.stringify({ message: thrown?.message, stack: thrown?.stack })).not.toContain('the-share-capability');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, page: 'share', code: 'database:unavailable', msg: 'page could not be loaded' });
    expect(lines[0].reference).toBe((thrown as Error & { digest?: string }).digest);
    expect(JSON.stringify(lines)).not.toContain('the-share-capability');
  });

  it('passes Next’s control flow (notFound) through untouched, and a page that renders is its own', async () => {
    const missing = withPageErrors('share', async () => notFound());
    await expect(missing({})).rejects.toMatchObject({ digest: expect.stringContaining('404') });
    expect(lines).toHaveLength(0);
    expect(await withPageErrors('home', async () => 'rendered')({})).toBe('rendered');
  });
});
