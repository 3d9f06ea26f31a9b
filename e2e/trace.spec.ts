import { expect, test, type Page } from './test';
import { seriousViolations } from './axe';
import { addScenarios, FAKE_MODEL, send } from './helpers';

/**
 * Traced numbers (lib/trace): one answer with figures from printed text (past the collapsed
 * head of a long output), from a SQL table cell, a made-up one and a year. Checked on the owner's
 * page (marks, tooltip, summary and list, jump to the value, Check with the model, axe), after a
 * reload, on the share page, and in the notebook export. One Pyodide boot for all of it.
 */

// 44 lines without numbers first, so the total lies past the 40 lines a long output shows collapsed.
const PRINT_CODE = 'for name in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQR":\n    print("checked region", name)\nprint("regions: 4")\nprint("total revenue: 8,549,553.71")';
const SQL_CODE = "SELECT 'North' AS region, 3214567.89 AS revenue UNION ALL SELECT 'South', 2845001.5";
const ANSWER = 'Total revenue is $8.55M over 4 regions; North brought in $3.21M. Margins grew 17% since 2023.';

/** Generous waits: Pyodide boots slowly on a loaded 2-core machine. */
async function openChat(page: Page) {
  await page.goto('/');
  await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 180_000 });
}

async function waitForTurn(page: Page) {
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible({ timeout: 120_000 });
}

async function expectMarks(page: Page) {
  const answer = page.locator('[data-role="assistant"][data-traced]').first();
  await expect(answer.locator('[data-trace="traced"]')).toHaveText(['$8.55M', '4', '$3.21M']);
  const untraced = answer.locator('[data-trace="untraced"]');
  await expect(untraced).toHaveText(['17%']);
  // Screen readers hear why (generated content: not part of the sentence's text or a copy of it).
  // Polled: after a reload the server-rendered marks are there before the stylesheet is applied.
  await expect.poll(() => untraced.evaluate((element) => getComputedStyle(element, '::after').content)).toBe('" (not found in any output)"');
  // The year is prose, not a figure.
  await expect(answer.locator('[data-trace]', { hasText: '2023' })).toHaveCount(0);
  await expect(answer.getByTestId('trace-summary').locator('summary')).toHaveText('3 of 4 figures traced to outputs');
  return answer;
}

test('figures are traced to the outputs that show them: marks, list, jump, check, reload, share and export', async ({ page, browser, baseURL }) => {
  test.setTimeout(420_000);
  const trigger = `e2e-trace-${Date.now()}`;
  await addScenarios([
    {
      trigger,
      steps: [{ toolCall: { name: 'python', arguments: { code: PRINT_CODE } } }, { toolCall: { name: 'sql', arguments: { code: SQL_CODE } } }, { text: ANSWER }],
    },
  ]);
  await openChat(page);
  await send(page, `Revenue by region. ${trigger}`);
  await waitForTurn(page);
  await expect(page.locator('[data-tool-call-id]')).toHaveCount(2);
  const answer = await expectMarks(page);

  // Focus says where a figure came from; Enter shows the table cell it came from.
  const north = answer.getByRole('button', { name: '$3.21M' });
  await north.focus();
  await expect(page.getByRole('tooltip', { name: /SQL run 2 of this answer, output \d+ \(table row 1, column revenue\): rounded from 3,214,567\.89/ })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('trace-tooltip.png') });
  await page.keyboard.press('Enter');
  const cell = page.locator('[data-target="sql"] td[data-trace-highlight]');
  await expect(cell).toHaveText('3,214,567.89');
  await expect(cell).toBeFocused();

  // The list opens from the summary; its entry shows the printed value, past the collapsed head.
  await answer.getByTestId('trace-summary').locator('summary').click();
  const list = answer.getByRole('list', { name: 'Figures of this answer' });
  await expect(list.getByRole('listitem')).toHaveCount(4);
  await expect(list.getByRole('listitem').nth(3)).toContainText('17% — not found in any output');
  await list.getByRole('button', { name: /Python run 1 of this answer, output \d+ \(printed text, line 46\)/ }).click();
  const mark = page.locator('[data-target="python"] mark[data-trace-highlight]');
  await expect(mark).toHaveText('8,549,553.71');
  await expect(mark).toBeFocused();
  await expect(page.locator('[data-target="sql"] td[data-trace-highlight]')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('trace-list.png'), fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // Nothing went to the model by itself; one click asks it to verify the untraced figure.
  const checks = async () => ((await (await fetch(`${FAKE_MODEL}/__requests`)).json()) as Array<{ body: unknown }>).filter((r) => JSON.stringify(r.body).includes('do not appear in any output')).length;
  expect(await checks()).toBe(0);
  await answer.getByRole('button', { name: 'Check with the model' }).click();
  await expect(page.locator('[data-role="user"]').last()).toContainText('- 17% (“');
  await waitForTurn(page);
  expect(await checks()).toBeGreaterThan(0);
  await expect(page.getByRole('button', { name: 'Check with the model' })).toHaveCount(1); // only the last answer offers it

  // The same traces after a reload, from storage.
  await page.reload();
  await expectMarks(page);

  // The share page: same marks, and the jump works for a visitor too.
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const shareUrl = await page.getByLabel('Share link').inputValue();
  const visitorContext = await browser.newContext({ baseURL });
  const visitor = await visitorContext.newPage();
  await visitor.goto(shareUrl);
  const shared = await expectMarks(visitor);
  await expect(visitor.getByRole('button', { name: 'Check with the model' })).toHaveCount(0);
  await shared.getByRole('button', { name: '$3.21M' }).click();
  await expect(visitor.locator('[data-target="sql"] td[data-trace-highlight]')).toHaveText('3,214,567.89');

  // The notebook export ends with the untraced figures.
  const response = await visitor.request.get(`${new URL(shareUrl).pathname.replace('/s/', '/api/shares/')}/notebook`);
  expect(response.ok()).toBe(true);
  const notebook = (await response.json()) as { cells: Array<{ cell_type: string; source: string[] }> };
  const last = notebook.cells.at(-1)!;
  expect(last.cell_type).toBe('markdown');
  expect(last.source.join('')).toContain('## Figures not found in any output');
  expect(last.source.join('')).toContain('- **17%** in answer 1');
  expect(last.source.join('')).not.toContain('**$3.21M**');
  await visitorContext.close();
});
