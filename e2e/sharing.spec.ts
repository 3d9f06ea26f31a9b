import { expect, test, newVisitorContext, firstPage } from './test';
import { addScenarios, openChat, PNG_CHART_CODE, send, shareLink, waitForTurn, waitForHydration } from './helpers';

test('a conversation with a figure survives a reload, can be shared, revoked and forked', async ({ page, playwright, baseURL }) => {
  const trigger = 'e2e-share-figure';
  await addScenarios([
    { trigger, steps: [{ toolCall: { name: 'python', arguments: { code: PNG_CHART_CODE } } }, { text: 'A sine chart, as asked.' }] },
    { trigger: 'e2e-fork-run', steps: [{ toolCall: { name: 'python', arguments: { code: 'print("the fork runs code:", 6 * 7)' } } }, { text: 'Done.' }] },
  ]);
  await openChat(page);
  await send(page, `Chart please. ${trigger}`);
  await expect(page.getByRole('img', { name: 'Figure 1' })).toBeVisible();
  await waitForTurn(page);
  await expect(page).toHaveURL(/\/c\/[0-9a-f-]{36}$/);

  // Reload: everything comes back from storage, the image from its blob.
  await page.reload();
  const storedImage = page.getByRole('img', { name: 'Figure 1' });
  await expect(storedImage).toBeVisible();
  expect(await storedImage.getAttribute('src')).toMatch(/^\/api\/blobs\/[0-9a-f]{64}$/);
  expect(await storedImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(360);
  await expect(page.getByText('A sine chart, as asked.')).toBeVisible();

  // Share, then open the link as a visitor with no cookie.
  const shareUrl = await shareLink(page);
  const visitorContext = await newVisitorContext(playwright, baseURL!);
  const visitor = await firstPage(visitorContext);
  await visitor.goto(shareUrl);
  await expect(visitor.getByRole('img', { name: 'Figure 1' })).toBeVisible();
  expect(await visitor.getByRole('img', { name: 'Figure 1' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(360);
  await expect(visitor.getByText('A sine chart, as asked.')).toBeVisible();
  await expect(visitor.getByText('drew a 360x200 sine chart')).toBeVisible();

  // Fork: the visitor continues in a conversation of their own, and can run code there.
  await visitor.getByRole('button', { name: 'Continue in my own chat' }).click();
  await expect(visitor).toHaveURL(/\/c\/[0-9a-f-]{36}$/);
  expect(visitor.url()).not.toBe(page.url());
  await expect(visitor.getByRole('img', { name: 'Figure 1' })).toBeVisible();
  // A stored conversation starts Python when it is needed (typing, a run), not with the page.
  await waitForHydration(visitor);
  await send(visitor, 'Run something. e2e-fork-run');
  await expect(visitor.getByText('the fork runs code: 42')).toBeVisible();

  // Revoke: the link is gone.
  await page.getByRole('button', { name: 'Revoke', exact: true }).click();
  // The page says so once the server has revoked it (the Share button shows from the click on).
  await expect(page.getByRole('status').filter({ hasText: 'Link revoked' })).toBeAttached();
  const gone = await visitor.goto(shareUrl);
  expect(gone?.status()).toBe(404);
  await visitorContext.close();
});
