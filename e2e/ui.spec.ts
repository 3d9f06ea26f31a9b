import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { addScenarios, openChat, PNG_CHART_CODE, send, waitForTurn } from './helpers';

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help}: ${v.nodes.map((n) => `${n.target.join(' ')} — ${n.failureSummary ?? ''}`).join('; ')}`)).toEqual([]);
}

async function shoot(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.screenshot({ path: `docs/screenshots/${name}-${width}-${theme}.png` });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

test('keyboard only: type, Enter sends, Esc stops a running cell, focus returns to the composer', async ({ page }) => {
  const trigger = 'e2e-keyboard';
  await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code: 'import time\nwhile True:\n    time.sleep(0.01)' } } }, { text: 'stopped' }] }]);
  await openChat(page);
  const composer = page.getByLabel('Message', { exact: true });
  await composer.focus();
  await page.keyboard.type('first line');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type(`second line ${trigger}`);
  await expect(composer).toHaveValue(`first line\nsecond line ${trigger}`);
  await page.keyboard.press('Enter');
  const cell = page.getByRole('region', { name: 'Python code cell' });
  await expect(cell).toHaveAttribute('data-cell-status', 'running');
  await page.keyboard.press('Escape');
  await expect(cell).toHaveAttribute('data-cell-status', /interrupted|timeout/);
  await expect(composer).toBeFocused();
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(page.locator('[data-role="user"]')).toContainText('first line');
});

test('empty state, a finished conversation and the share page pass axe; screenshots', async ({ page, browser, baseURL }) => {
  await openChat(page);
  await expect(page.getByRole('heading', { name: 'What should we compute?' })).toBeVisible();
  await expectNoSeriousViolations(page);
  await shoot(page, 'empty');

  const trigger = 'e2e-ui-conversation';
  const tableCode = [
    'class Table:',
    '    def _repr_markdown_(self):',
    '        rows = [(n, n * n, n ** 3) for n in range(1, 6)]',
    '        return "| n | square | cube |\\n|---:|---:|---:|\\n" + "\\n".join(f"| {a} | {b} | {c} |" for a, b, c in rows)',
    'display(Table())',
  ].join('\n');
  await addScenarios([
    {
      trigger,
      steps: [
        { text: 'Let me draw it.', toolCall: { name: 'python', arguments: { code: PNG_CHART_CODE } } },
        { toolCall: { name: 'python', arguments: { code: tableCode } } },
        { text: 'The chart shows **two periods** of a sine wave, and the table lists squares and cubes of 1–5.' },
      ],
    },
  ]);
  await send(page, `Draw a sine chart and a table of squares. ${trigger}`);
  await waitForTurn(page);
  await expect(page.getByText('two periods')).toBeVisible();
  await expectNoSeriousViolations(page);
  await shoot(page, 'conversation');

  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const url = await page.getByLabel('Share link').inputValue();
  const visitor = await (await browser.newContext({ baseURL })).newPage();
  await visitor.goto(url);
  await expect(visitor.getByRole('img', { name: 'Figure 1' })).toBeVisible();
  await expectNoSeriousViolations(visitor);
  await shoot(visitor, 'share');
});
