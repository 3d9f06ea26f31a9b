import { expect, test, type Page } from './test';
import { addScenarios, openChat, send, waitForTurn } from './helpers';

/**
 * What an analyst's first session showed: a stopped cell that a reload called "cut off", a
 * message that would not go while a dropped file was being kept, charts a third of their card's
 * width, a missing script on every page load, a stray `](streamdown:incomplete-link)` after an
 * unclosed `[`, and the model's name cut on a phone.
 */

const pythonCells = (page: Page) => page.getByRole('region', { name: 'Python code cell' });

/** What the person sees, at a desktop's width and a phone's, kept with the test's results. */
async function shots(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
  if (size) await page.setViewportSize(size);
}

test('a cell stopped with Esc stays stopped after a reload, with every line it printed', async ({ page }) => {
  const trigger = `e2e-stop-reload-${Date.now()}`;
  // Quotes and non-Latin letters in what it prints; a loop that only Esc ends.
  const code = 'import time\nfor i in range(1, 100000):\n    print(f"línea «{i}» \'q\' \\"dq\\"", flush=True)\n    time.sleep(0.2)';
  await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code } } }, { text: 'never reached' }] }]);
  await openChat(page);
  await send(page, `Loop until stopped. ${trigger}`);
  const cell = pythonCells(page).first();
  await expect(cell.getByTestId('cell-outputs')).toContainText('línea «8»', { timeout: 60_000 });
  await page.keyboard.press('Escape');
  await expect(cell).toHaveAttribute('data-cell-status', 'interrupted', { timeout: 30_000 });
  await expect(cell).toContainText('Variables were kept');
  await waitForTurn(page);
  const printed = (await cell.getByTestId('cell-outputs').innerText()).trim();
  const lastLine = printed.split('\n').filter((line) => line.includes('línea')).at(-1) as string;
  const stoppedAfter = (await cell.innerText()).match(/interrupted after ([\d.]+ m?s)/)?.[1];
  expect(stoppedAfter).toBeTruthy();

  // At once, as a person would: what the cell shows is stored.
  await page.reload();
  const reloaded = pythonCells(page).first();
  await expect(reloaded).toHaveAttribute('data-cell-status', 'interrupted');
  await expect(reloaded).toContainText('Variables were kept');
  await expect(reloaded).toContainText(`interrupted after ${stoppedAfter}`);
  await expect(reloaded).not.toContainText('cut off by a reload');
  await expect(reloaded.getByTestId('cell-outputs')).toContainText(lastLine);
  await shots(page, 'stopped-after-reload');
});

test('a message sent while a dropped file is being kept goes when the file is ready, and says so', async ({ page }) => {
  const trigger = `e2e-queued-${Date.now()}`;
  await addScenarios([{ trigger, steps: [{ text: 'Got the file.' }] }]);
  await openChat(page);
  // The file's record waits until the test lets it through: it is "being kept" for as long as that.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/conversations\/[^/]+\/(files|device-files)(\?.*)?$/, async (route) => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });
  const name = 'ventas «2026» "q".csv';
  const transfer = await page.evaluateHandle(([fileName]) => {
    const data = new DataTransfer();
    data.items.add(new File(['región,importe\nnorte,10\nsur,45\n'], fileName, { type: 'text/csv' }));
    return data;
  }, [name] as const);
  await page.locator('#conversation').dispatchEvent('dragenter', { dataTransfer: transfer });
  await page.locator('#conversation').dispatchEvent('drop', { dataTransfer: transfer });
  const chip = page.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  await expect(chip).toHaveAttribute('data-upload-status', /keeping|sending|storing/);

  const text = `Sum the amounts. ${trigger}`;
  const composer = page.getByLabel('Message', { exact: true });
  await composer.fill(text);
  await composer.press('Enter');
  // Taken: the box is empty, and the page says the message waits for the file.
  await expect(composer).toHaveValue('');
  await expect(page.getByTestId('queued-message')).toContainText('Sends when the files are ready');
  await expect(page.getByTestId('queued-message')).toContainText(text);
  await expect(page.locator('[data-role="user"]')).toHaveCount(0);
  await shots(page, 'queued');

  release();
  await expect(chip).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('queued-message')).toHaveCount(0);
  const sent = page.locator('[data-role="user"]').last();
  await expect(sent).toContainText(text);
  // The name as kept (a quote is not kept in a file name).
  await expect(sent).toContainText(/ventas «2026» .q.\.csv/);
  await waitForTurn(page);
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('Got the file.');
});

test('a chart without a width of its own fills its card', async ({ page }) => {
  const trigger = `e2e-chart-width-${Date.now()}`;
  // As Altair writes it: a default view width in the config, none on the chart.
  const code = `display({"application/vnd.vegalite.v5+json": {
    "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
    "config": {"view": {"continuousWidth": 300, "continuousHeight": 300}},
    "data": {"values": [{"día": "lunes", "n": 3}, {"día": "martes", "n": 7}, {"día": "miércoles", "n": 5}]},
    "mark": "bar",
    "encoding": {"x": {"field": "día", "type": "nominal"}, "y": {"field": "n", "type": "quantitative"}},
}}, raw=True)`;
  await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code } } }, { text: 'Charted.' }] }]);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await openChat(page);
    await send(page, `Chart it. ${trigger}`);
    const chart = page.locator('[data-output="vegalite"][data-chart-state="rendered"]').first();
    await expect(chart).toBeVisible({ timeout: 60_000 });
    await waitForTurn(page);
    // The drawing takes the card's width (less its padding), whatever that width is.
    const { drawn, room } = await chart.evaluate((figure) => {
      const frame = figure.firstElementChild as HTMLElement;
      const style = getComputedStyle(frame);
      const svg = frame.querySelector('svg') as SVGSVGElement;
      return { drawn: svg.getBoundingClientRect().width, room: frame.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) };
    });
    expect(drawn).toBeGreaterThan(room * 0.9);
    expect(drawn).toBeLessThanOrEqual(room + 1);
    await page.screenshot({ path: test.info().outputPath(`chart-${width}.png`) });
  }
});

test('a page load asks for no missing file and runs every script it names', async ({ page }) => {
  const failed: string[] = [];
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  page.on('console', (message) => {
    if (/Refused to (execute|load)/.test(message.text())) refused.push(message.text());
  });
  await openChat(page);
  await page.reload();
  await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 60_000 });
  // The boot script is served as a script, and it started the interpreter's worker itself.
  const boot = await page.evaluate(async () => {
    const script = document.querySelector<HTMLScriptElement>('script[src^="/workers/python-boot.js"]');
    if (!script) return null;
    const response = await fetch(script.src);
    return { status: response.status, type: response.headers.get('content-type') };
  });
  expect(boot).toEqual({ status: 200, type: expect.stringMatching(/javascript/) });
  expect(failed).toEqual([]);
  expect(refused).toEqual([]);
});

test('an answer with an unclosed [ shows it as written, with no incomplete-link marker', async ({ page }) => {
  const trigger = `e2e-bracket-${Date.now()}`;
  const answer = 'The values lie in [0, 1) for «ü» and [2, 3\n\nSee the table above.';
  await addScenarios([{ trigger, steps: [{ text: answer }] }]);
  await openChat(page);
  await send(page, `Intervals. ${trigger}`);
  await waitForTurn(page);
  const shown = page.locator('[data-role="assistant"]').last();
  await expect(shown).toContainText('The values lie in [0, 1) for «ü» and [2, 3');
  await expect(shown).toContainText('See the table above.');
  await expect(shown).not.toContainText('streamdown:');
  await shots(page, 'bracket');
  await page.reload();
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('[0, 1) for «ü» and [2, 3');
  await expect(page.locator('[data-role="assistant"]').last()).not.toContainText('streamdown:');
});
