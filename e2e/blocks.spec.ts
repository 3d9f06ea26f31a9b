import { expect, test, newVisitorContext, firstPage } from './test';
import { addScenarios, FAKE_MODEL, openChat, send, waitForTurn } from './helpers';

/**
 * Blocks mode (RUNPAD_CODE_MODE=blocks, this project's server): a model that never calls tools
 * writes fenced blocks; each runs as a cell, its outputs go back as the next message, and the
 * conversation is stored, reloaded and shared exactly like one with tool calls. Blocks of every
 * target become their target's tool calls (lib/ai/blocks-stream.test.ts); here Python, SQL and DOT
 * run (R's start adds nothing blocks mode does differently: e2e/r.spec.ts).
 */
test('a blocks-only model fixes its own error in a two-step turn, then runs SQL and DOT blocks', async ({ page, playwright, baseURL }) => {
  test.setTimeout(360_000); // DuckDB starts on the SQL block's run
  const stamp = Date.now();
  const first = `e2e-blocks-fix-${stamp}`;
  const second = `e2e-blocks-more-${stamp}`;
  await addScenarios([
    {
      trigger: first,
      steps: [
        { text: 'Let me add them up.\n```python\ntotal = sum(range(101))\nprint("total", totl)\n```\n' },
        { text: 'A typo; fixing it.\n```python\nprint("total", total)\n```\n' },
        { text: 'The total is 5050.' },
      ],
    },
    {
      trigger: second,
      steps: [
        { text: 'A query and a diagram:\n```sql\nSELECT 6 * 7 AS answer;\n```\n```dot\ndigraph { ask -> answer }\n```\n' },
        { text: 'Both ran.' },
      ],
    },
  ]);
  await openChat(page);
  await send(page, `Add 0 to 100. ${first}`);
  await expect(page.locator('#conversation').getByText('The total is 5050.')).toBeVisible();
  await waitForTurn(page);
  const cells = page.locator('section[data-target]');
  await expect(cells).toHaveCount(2);
  await expect(cells.nth(0)).toHaveAttribute('data-cell-status', 'error');
  await expect(cells.nth(0)).toContainText("NameError: name 'totl' is not defined");
  await expect(cells.nth(1)).toHaveAttribute('data-cell-status', 'ok');
  await expect(cells.nth(1)).toContainText('total 5050');
  // Fenced code is not shown twice: the blocks became cells.
  await expect(page.locator('#conversation').getByText('print("total", totl)')).toHaveCount(0);

  // What the model was sent: no tools; its own blocks in its messages; the outputs as a user message.
  const all = (await (await fetch(`${FAKE_MODEL}/__requests`)).json()) as Array<{ body: { tools?: unknown; messages: Array<{ role: string; content: unknown }> } }>;
  const turn = all.filter((r) => JSON.stringify(r.body.messages).includes(first) && JSON.stringify(r.body.messages).includes('fenced code block tagged'));
  expect(turn.length).toBeGreaterThanOrEqual(3);
  expect(turn.every((r) => !r.body.tools)).toBe(true);
  const secondRequest = JSON.stringify(turn[1].body.messages);
  expect(secondRequest).toContain('Output of block 1 (python)');
  expect(secondRequest).toContain("NameError: name 'totl' is not defined");
  expect(secondRequest).toContain('```python');

  await send(page, `More. ${second}`);
  await expect(page.locator('#conversation').getByText('Both ran.')).toBeVisible({ timeout: 90_000 });
  await waitForTurn(page);
  await expect(page.locator('section[data-target="sql"]')).toContainText('42');
  await expect(page.locator('section[data-target="graphviz"]').getByRole('img', { name: /Diagram/ })).toBeVisible();
  // Both blocks' outputs went back to the model together, as the next message.
  const more = ((await (await fetch(`${FAKE_MODEL}/__requests`)).json()) as Array<{ body: { messages: unknown[] } }>).filter((r) => JSON.stringify(r.body.messages).includes(second));
  expect(JSON.stringify(more.at(-1)!.body.messages)).toMatch(/Output of block 1 \(sql\)[^]*42[^]*Output of block 2 \(dot\)/);

  // Stored, reloaded and shared like tool calls.
  await page.reload();
  await expect(page.locator('section[data-target]')).toHaveCount(4);
  await expect(page.locator('section[data-target]').nth(1)).toContainText('total 5050');
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const shareUrl = await page.getByLabel('Share link').inputValue();
  const visitor = await firstPage(await newVisitorContext(playwright, baseURL!));
  await visitor.goto(shareUrl);
  await expect(visitor.locator('section[data-target]')).toHaveCount(4);
  await expect(visitor.locator('section[data-target="graphviz"]').getByRole('img', { name: /Diagram/ })).toBeVisible();
  await expect(visitor.locator('section[data-target="sql"]')).toContainText('42');
  await visitor.context().close();
});
