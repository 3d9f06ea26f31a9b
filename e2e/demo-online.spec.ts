import { expect, test } from './test';
import { officialPackageBaseUrl } from '../scripts/pyodide-assets.mjs';
import { openChat, send, waitForTurn } from './helpers';

/**
 * The scientific stack against the real package source (the demo app uses the official CDN).
 * This machine is usually offline; then these tests are skipped with a notice saying why.
 */
async function packageSourceReachable(): Promise<boolean> {
  try {
    const response = await fetch(`${officialPackageBaseUrl}pyodide-lock.json`, { method: 'HEAD', signal: AbortSignal.timeout(5_000) });
    return response.ok;
  } catch {
    return false;
  }
}

test.describe('online: matplotlib and pandas from the real package source', () => {
  test.beforeAll(async () => {
    const reachable = await packageSourceReachable();
    if (!reachable) console.log(`NOTICE: ${officialPackageBaseUrl} is not reachable from this machine; the online scenarios are skipped.`);
    // This scenario runs against the real source when it is reachable, with a visible skip when
    // the CDN is not reachable from this machine (the one skip CI keeps: no service of ours is
    // missing); the offline mirror e2e (packages.spec.ts) covers the same path here.
    test.skip(!reachable, `${officialPackageBaseUrl} is not reachable from this machine`);
  });

  test('a matplotlib figure is rendered from a plt.show()', async ({ page }) => {
    await openChat(page);
    await send(page, 'Plot a sine wave with matplotlib');
    const cell = page.getByRole('region', { name: 'Python code cell' });
    await expect(cell).toHaveAttribute('data-cell-status', 'ok', { timeout: 120_000 });
    await expect(cell.getByRole('img', { name: 'Figure 1' })).toBeVisible();
    await waitForTurn(page);
  });

  test('a pandas DataFrame becomes a table', async ({ page }) => {
    await openChat(page);
    await send(page, 'Make a pandas dataframe table of squares and cubes');
    const cell = page.getByRole('region', { name: 'Python code cell' });
    await expect(cell).toHaveAttribute('data-cell-status', 'ok', { timeout: 120_000 });
    const table = cell.getByRole('table');
    await expect(table.getByRole('columnheader', { name: 'square' })).toBeVisible();
    await expect(table).toContainText('1000');
    await waitForTurn(page);
  });
});
