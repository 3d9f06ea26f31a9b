import { expect, test } from '@playwright/test';
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
