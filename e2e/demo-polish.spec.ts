import { expect, test } from './test';
import { officialPackageBaseUrl } from '../scripts/pyodide-assets.mjs';
import { openChat, send, waitForTurn } from './helpers';

test('the demo model shows code it quotes as written: 2**100 / 7 keeps its ** (it was bold "2100 / 7")', async ({ page }) => {
  await openChat(page);
  await send(page, 'what is 2**100 / 7');
  const cell = page.getByRole('region', { name: 'Python code cell' });
  await expect(cell.getByTestId('cell-outputs')).toContainText('2**100 / 7 = 1.8109294288974705e+29');
  await waitForTurn(page);
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText('So: 2**100 / 7 = 1.8109294288974705e+29.');
  await expect(answer.locator('strong, [data-streamdown="strong"]').filter({ hasText: /^100 \/ 7/ })).toHaveCount(0);
});

/**
 * The demo app uses the official package source, which this machine usually cannot reach. Either
 * way the page must tell the truth: asked once, said once, and no suggestion that cannot run.
 */
test('when the package source does not answer, the page says so once and suggests only what runs', async ({ page }) => {
  const reachable = await fetch(`${officialPackageBaseUrl}pyodide-lock.json`, { method: 'HEAD', signal: AbortSignal.timeout(5_000) }).then(
    (response) => response.ok,
    () => false,
  );
  await openChat(page);
  const examples = page.locator('#conversation').getByRole('button');
  if (reachable) {
    await expect(examples.filter({ hasText: 'Plot a sine wave' })).toBeVisible();
    await expect(page.getByTestId('package-source-notice')).toHaveCount(0);
    return;
  }
  const notice = page.getByTestId('package-source-notice');
  await expect(notice).toContainText('can’t be downloaded right now: cdn.jsdelivr.net isn’t answering');
  await expect(notice).toHaveCount(1);
  await expect(examples.filter({ hasText: 'Plot a sine wave' })).toHaveCount(0);
  await examples.filter({ hasText: 'Draw a flowchart of a pull request review' }).click();
  const cell = page.locator('section[data-target="graphviz"]');
  await expect(cell).toHaveAttribute('data-cell-status', 'ok');
  await expect(cell.getByRole('img', { name: /Diagram/ })).toBeVisible();
  await waitForTurn(page);
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
});
