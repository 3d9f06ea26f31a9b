import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, newVisitorContext, firstPage } from './test';
import { addScenarios, chatRequestsFor, openChat, PNG_CHART_CODE, send, waitForTurn } from './helpers';

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

/**
 * The keyboard tests are turns of one conversation in one page (one interpreter): each reads the
 * cell its own turn added; the second ends with a reload.
 */
test.describe('a keyboard user’s conversation', () => {
  test.describe.configure({ mode: 'serial' });

  let page: Page;

  test.beforeAll(async ({ playwright, baseURL }) => {
    page = await firstPage(await newVisitorContext(playwright, baseURL!));
    await openChat(page);
  });

  test.afterAll(async () => {
    await page.context().close();
  });

  /** The Python cell the next turn adds. */
  async function nextPythonCell() {
    const cells = page.getByRole('region', { name: 'Python code cell' });
    return cells.nth(await cells.count());
  }

  test('keyboard only: type, Enter sends, Esc stops a running cell, focus returns to the composer', async () => {
    const trigger = 'e2e-keyboard';
    await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code: 'import time\nwhile True:\n    time.sleep(0.01)' } } }, { text: 'stopped' }] }]);
    const cell = await nextPythonCell();
    const composer = page.getByLabel('Message', { exact: true });
    await composer.focus();
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type(`second line ${trigger}`);
    await expect(composer).toHaveValue(`first line\nsecond line ${trigger}`);
    await page.keyboard.press('Enter');
    await expect(cell).toHaveAttribute('data-cell-status', 'running');
    await page.keyboard.press('Escape');
    await expect(cell).toHaveAttribute('data-cell-status', /interrupted|timeout/);
    await expect(composer).toBeFocused();
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
    await expect(page.locator('[data-role="user"]').last()).toContainText('first line');
  });

  test('keyboard only: run a cell again, edit its code, edit and re-send a message, regenerate', async () => {
    const [ask, followUp, edited] = ['e2e-cell-ask', 'e2e-cell-follow-up', 'e2e-cell-edited'];
    await addScenarios([
      { trigger: ask, steps: [{ toolCall: { name: 'python', arguments: { code: 'x = 20\nprint("x is", x)' } } }, { echoToolResult: true }] },
      { trigger: followUp, steps: [{ text: 'I see your edit.' }] },
      { trigger: edited, steps: [{ text: 'Answer to the edited question.' }] },
    ]);
    const cell = await nextPythonCell();
    const questionsBefore = await page.locator('[data-role="user"]').count();
    await send(page, `Set x. ${ask}`);
    await waitForTurn(page);
    await expect(cell.getByTestId('cell-outputs')).toContainText('x is 20');
    // Screen readers hear the status change once, without the running clock.
    await expect(cell.getByTestId('run-announcement')).toHaveText(/^Code done in [\d.]+ m?s\.$/);
    await expect(cell.getByTestId('run-announcement')).toHaveAttribute('aria-live', 'polite');

    await cell.getByRole('button', { name: 'Run again' }).focus();
    await page.keyboard.press('Enter');
    await expect(cell).toContainText('run again by you');
    await expect(cell.getByTestId('cell-outputs')).toContainText('x is 20');

    await cell.getByRole('button', { name: 'Edit', exact: true }).focus();
    await page.keyboard.press('Enter');
    const editor = cell.getByLabel('Edit code');
    await expect(editor).toBeFocused();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('x = 21\nprint("x is", x)');
    await page.keyboard.press('ControlOrMeta+Enter');
    await expect(cell).toContainText('edited by you');
    await expect(cell.getByTestId('cell-outputs')).toContainText('x is 21');

    // The model is told of the edit, with the new code and output, on the next message.
    await send(page, `What changed? ${followUp}`);
    await expect(page.getByText('I see your edit.')).toBeVisible();
    await waitForTurn(page);
    const [request] = await chatRequestsFor(followUp);
    const context = JSON.stringify(request.body.messages);
    expect(context).toContain('The user edited this code and ran their version');
    expect(context).toContain('x is 21');
    expect(context).toContain('x = 21');

    // Edit the last question and re-send it: the answer after it is replaced.
    const lastQuestion = page.locator('[data-role="user"]').last();
    await expect(lastQuestion).toContainText('What changed?');
    await page.getByRole('button', { name: 'Edit', exact: true }).last().focus();
    await page.keyboard.press('Enter');
    const messageEditor = page.getByLabel('Edit message');
    await expect(messageEditor).toBeFocused();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(`Another question. ${edited}`);
    await page.keyboard.press('Enter');
    await expect(page.getByText('Answer to the edited question.')).toBeVisible();
    await waitForTurn(page);
    await expect(page.getByText('I see your edit.')).toHaveCount(0);

    await page.getByRole('button', { name: 'Regenerate' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await chatRequestsFor(edited)).length).toBe(2);
    await waitForTurn(page);

    // All of it was stored: the edited cell and the replaced question survive a reload.
    await page.reload();
    await expect(cell.getByTestId('cell-outputs')).toContainText('x is 21');
    await expect(cell).toContainText('edited by you');
    await expect(page.locator('[data-role="user"]')).toHaveCount(questionsBefore + 2);
    await expect(page.locator('[data-role="user"]').last()).toContainText('Another question.');
    await expect(page.getByText('Answer to the edited question.')).toHaveCount(1);
  });
});

test('empty state, a finished conversation and the share page pass axe; screenshots', async ({ page, playwright, baseURL }) => {
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
  // The model's title (the fake model answers the title request with the scenario's first text)
  // names the conversation in the list and in the header alike, without a reload.
  await expect(page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: 'Let me draw it.' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Let me draw it.');
  await expectNoSeriousViolations(page);
  await shoot(page, 'conversation');

  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const url = await page.getByLabel('Share link').inputValue();
  const visitor = await firstPage(await newVisitorContext(playwright, baseURL!));
  await visitor.goto(url);
  await expect(visitor.getByRole('img', { name: 'Figure 1' })).toBeVisible();
  await expectNoSeriousViolations(visitor);
  await shoot(visitor, 'share');
  // On a phone the conversation's title is read whole, not cut to "Le…" beside the header's buttons.
  await visitor.setViewportSize({ width: 390, height: 844 });
  const title = visitor.getByRole('heading', { level: 1 });
  await expect(title).toHaveText('Let me draw it.');
  expect(await title.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await visitor.context().close();
});
