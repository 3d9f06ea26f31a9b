import { expect, test } from './test';
import { addScenarios, chatRequestsFor, openChat, send, waitForTurn } from './helpers';

/**
 * The JavaScript target, added in one folder (lib/targets/javascript/) and one line in each list:
 * the model calls it, the page runs the code in a worker of its own and shows what it printed and
 * its value, and the model reads them back; an error names its line; the worker has no DOM and
 * its policy lets it reach no one.
 */
test('a javascript call prints and shows its value on the page and to the model; an error names its line; the worker has no DOM and no network', async ({ page }) => {
  const trigger = `e2e-js-${Date.now()}`;
  const sums = ['const xs = [3, 1, 2];', "console.log('sorted:', xs.sort().join(','));", 'console.log(typeof document, typeof window);', 'xs.reduce((a, b) => a + b, 0) * 7'].join('\n');
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'javascript', arguments: { code: sums } } },
        { toolCall: { name: 'javascript', arguments: { code: 'const a = 1;\nnotDefined + a' } } },
        { toolCall: { name: 'javascript', arguments: { code: "fetch('/api/health').then((response) => response.status)" } } },
        { text: 'The sum times seven is 42.' },
      ],
    },
  ]);
  await openChat(page);
  await send(page, `Sum these in JavaScript. ${trigger}`);
  await expect(page.locator('#conversation').getByText('The sum times seven is 42.')).toBeVisible();
  await waitForTurn(page);

  const cells = page.locator('section[data-target="javascript"]');
  await expect(cells).toHaveCount(3);
  await expect(cells.nth(0)).toHaveAttribute('data-cell-status', 'ok');
  await expect(cells.nth(0)).toContainText('sorted: 1,2,3');
  await expect(cells.nth(0)).toContainText('undefined undefined');
  await expect(cells.nth(0)).toContainText('42');
  await expect(cells.nth(1)).toHaveAttribute('data-cell-status', 'error');
  await expect(cells.nth(1)).toContainText('ReferenceError');
  await expect(cells.nth(1)).toContainText('notDefined is not defined');
  // The worker's policy is connect-src 'none': the request is refused, and the code's promise rejects.
  await expect(cells.nth(2)).toHaveAttribute('data-cell-status', 'error');
  await expect(cells.nth(2)).toContainText('TypeError');

  const requests = await chatRequestsFor(trigger);
  // The model was told of the target by its own definition, in the tools and the system prompt.
  expect(JSON.stringify(requests[0].body)).toContain('runs JavaScript in a fresh worker of its own');
  const toolResults = JSON.stringify(requests.at(-1)!.body.messages.filter((m) => m.role === 'tool'));
  expect(toolResults).toContain('sorted: 1,2,3');
  expect(toolResults).toContain('42');
  expect(toolResults).toContain('notDefined is not defined');
  expect(toolResults).toContain('line 2');
  expect(toolResults).toContain('TypeError');
});
