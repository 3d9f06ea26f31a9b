import { expect, test } from './test';
import { addScenarios, chatRequestsFor, dropCsv, openChat, requestsFor, send, waitForTurn } from './helpers';

/**
 * What the model sees (README, "What the model sees"): with the setting on, a conversation sends
 * the model only the shape of the data. The person still sees the value; no request the model
 * received carries it; and "What the model saw" lists, text by text, what the model received.
 */
test('with only the shape of the data sent, a planted value is shown to the person and never sent; What the model saw is what the model received', async ({ page }) => {
  const SECRET = 'QUOKKA-9931';
  const trigger = `e2e-model-sees-${Date.now()}`;
  const code = 'import csv\nrows = list(csv.DictReader(open("/data/people.csv", newline="")))\nprint(rows[0]["name"])\nraise KeyError(rows[0]["name"])';
  await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code } } }, { text: 'It failed on a missing key.' }] }]);
  // The person's setting (Settings → Send the model only the shape of my data), kept in this browser.
  await page.addInitScript(() => localStorage.setItem('runpad:settings', JSON.stringify({ modelSees: 'schema' })));
  await openChat(page);
  await dropCsv(page, 'people.csv', `name,age\n${SECRET},41\nAda,36\n`);
  await send(page, `Read the people. ${trigger}`);
  const cell = page.locator('section[data-target="python"]');
  await expect(cell).toHaveAttribute('data-cell-status', 'error', { timeout: 60_000 });
  // The person sees the value: printed, and in the error.
  await expect(cell).toContainText(SECRET);
  await expect(page.locator('#conversation').getByText('It failed on a missing key.')).toBeVisible();
  await waitForTurn(page);

  const requests = await chatRequestsFor(trigger);
  expect(requests).toHaveLength(2);
  // Every request the provider received, the title's among them (asked for after the first answer).
  await expect.poll(async () => (await requestsFor(trigger)).length).toBe(3);
  const received = JSON.stringify((await requestsFor(trigger)).map((r) => r.body));
  expect(received).not.toContain(SECRET);
  // Column names and the error still reach the model.
  expect(received).toContain('name (string), age (integer)');
  expect(received).toContain('error: KeyError: <value>');

  // The conversation shows its running total.
  await expect(page.getByTestId('model-sent-total')).toContainText('in 3 requests (only the shape of the data)');
  await page.getByRole('button', { name: 'What the model saw' }).last().click();
  const dialog = page.getByRole('dialog', { name: 'What the model saw' });
  const inputs = dialog.getByTestId('model-input');
  // The answer's two requests and the title's, listed under the answer.
  await expect(inputs).toHaveCount(3);
  await expect(dialog.getByTestId('model-saw-total')).toContainText('3 requests');
  await expect(inputs.filter({ hasText: 'the conversation’s title' })).toHaveCount(1);
  const bodies = (await requestsFor(trigger)).map((request) => JSON.stringify(request.body));
  for (let index = 0; index < 3; index++) {
    const texts = await inputs.nth(index).getByTestId('model-input-text').allTextContents();
    expect(texts.length).toBeGreaterThan(0);
    // Each text as listed is in what the model received, character for character (on the Chat
    // Completions wire a tool result's parts travel as JSON text, so escaped once more there).
    const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
    const listed = texts.filter((text) => text !== '');
    expect(bodies.some((body) => listed.every((text) => body.includes(escaped(text)) || body.includes(escaped(escaped(text))))), listed.join(' | ')).toBe(true);
    expect(texts.join('\n')).not.toContain(SECRET);
  }
});
