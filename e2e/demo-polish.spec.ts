import { expect, test } from './test';
import { officialPackageBaseUrl } from '../scripts/pyodide-assets.mjs';
import { openChat, send, waitForTurn, startPython } from './helpers';

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

/**
 * On a phone (390 × 844) with the notices showing — the package source unreachable (offline, as
 * here), and earlier results to reload after a reload — the conversation keeps most of the
 * height, a table's actions stay on screen, and its headers are whole.
 */
test('at 390 px the notices take one line each, the conversation keeps 70% of the height, and a table keeps its actions', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openChat(page);
  await send(page, 'Run a SQL query');
  const cell = page.getByRole('region', { name: 'SQL code cell' });
  await expect(cell).toHaveAttribute('data-cell-status', 'ok', { timeout: 120_000 });
  await waitForTurn(page);
  await page.reload();
  // A stored conversation starts Python when it is needed; Start does it, for the package notice.
  await startPython(page);

  const banner = page.getByTestId('restore-banner');
  await expect(banner).toHaveAttribute('data-restore-state', 'offered');
  await expect(banner).toContainText('Earlier results aren’t loaded');
  await expect(banner.getByRole('button', { name: /^Reload them \(\d+ s\)$/ })).toBeVisible();
  const notices = [banner];
  const offline = !(await fetch(`${officialPackageBaseUrl}pyodide-lock.json`, { method: 'HEAD', signal: AbortSignal.timeout(5_000) }).then((r) => r.ok, () => false));
  if (offline) {
    const notice = page.getByTestId('package-source-notice');
    await expect(notice).toContainText('Extra Python packages can’t be downloaded');
    notices.push(notice);
  }
  // One line each; the whole story is a Details away.
  for (const notice of notices) {
    const summary = notice.locator('p').first();
    const lineHeight = await summary.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
    expect((await summary.boundingBox())!.height).toBeLessThanOrEqual(lineHeight + 1);
    const line = notice.locator('button[aria-expanded]');
    const details = notice.locator(`[id="${await line.getAttribute('aria-controls')}"]`);
    await expect(details).toBeHidden();
    await line.click();
    await expect(line).toHaveAttribute('aria-expanded', 'true');
    await expect(details).toBeVisible();
    await line.click();
    await expect(details).toBeHidden();
  }
  // Words an analyst uses: no interpreter, kernel or "runs" (as things) on the page's surface.
  const surface = await page.locator('body').innerText();
  expect(surface).not.toMatch(/\b(interpreter|kernel)\b|\bearlier runs\b|\bruns? \d/i);

  const conversation = page.locator('#conversation');
  expect((await conversation.boundingBox())!.height).toBeGreaterThanOrEqual(0.7 * 844);
  const table = cell.getByTestId('table-output');
  const download = table.getByRole('button', { name: 'Download CSV' });
  await download.scrollIntoViewIfNeeded();
  await expect(download).toBeInViewport({ ratio: 1 });
  // Headers are whole when their column fits them: none is cut with an ellipsis.
  for (const header of await table.locator('thead th button span:first-child').all()) {
    expect(await header.evaluate((element) => element.scrollWidth <= element.clientWidth), (await header.textContent()) ?? '').toBe(true);
  }
  const title = page.locator('header h1');
  expect(await title.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await page.screenshot({ path: 'docs/screenshots/notices-390-light.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(download).toBeVisible();
  await page.screenshot({ path: 'docs/screenshots/notices-1280-light.png' });
});

test('the offline demo says its model is built in: nothing is said to be sent to a model provider', async ({ page }) => {
  await openChat(page);
  await send(page, 'Compute the 25th Fibonacci number');
  await waitForTurn(page);
  const total = page.getByTestId('model-sent-total');
  await expect(total).toContainText('the built-in demo model, which runs on this server');
  await expect(total).toContainText('nothing was sent to a model provider');
  await expect(total).not.toContainText('Sent to the model provider');
  await page.getByRole('button', { name: 'What the model saw' }).last().click();
  const dialog = page.getByRole('dialog', { name: 'What the model saw' });
  await expect(dialog.getByTestId('model-input').first()).toBeVisible();
  await expect(dialog).toContainText('nothing left this server');
  await expect(dialog).not.toContainText('sent the model provider');
});
