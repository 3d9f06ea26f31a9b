import { expect, test, type Page, newVisitorContext, firstPage } from './test';
import { addScenarios, chatRequestsFor, FAKE_MODEL, openChat, send, waitForTurn } from './helpers';

/**
 * Interactive Vega-Lite charts: drawn in the page under its CSP (no 'unsafe-eval'), with tooltips,
 * loading nothing from the network, and sent to the model as a PNG.
 */

type Message = { role: string; content: unknown };

const BAR_CHART_CODE = `spec = {
    "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
    "title": "Fruit sold",
    "data": {"values": [{"fruit": "apples", "count": 3}, {"fruit": "pears", "count": 7}, {"fruit": "plums", "count": 5}]},
    "mark": {"type": "bar", "tooltip": True},
    "encoding": {
        "x": {"field": "fruit", "type": "nominal"},
        "y": {"field": "count", "type": "quantitative"},
    },
}
display({"application/vnd.vegalite.v5+json": spec}, raw=True)
print("charted 3 fruits")
`;

/** A data URL in the spec, and an image URL that only the data names (found by the loader, not before). */
const URL_CHART_CODE = `display({"application/vnd.vegalite.v5+json": {
    "data": {"url": "https://example.com/data.csv"},
    "mark": "bar",
    "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}},
}}, raw=True)
display({"application/vnd.vegalite.v5+json": {
    "data": {"values": [{"x": 1, "logo": "https://example.com/logo.png"}]},
    "mark": {"type": "image", "width": 20, "height": 20},
    "encoding": {"x": {"field": "x", "type": "quantitative"}, "url": {"field": "logo", "type": "nominal"}},
}}, raw=True)
`;

type Violation = { directive: string; blockedURI: string; sourceFile: string; line: number; column: number };

/**
 * Every request the page (and its workers) makes, and every CSP violation it reports. Requests
 * to the app's Pyodide package source (the fake server's mirror, PYODIDE_PACKAGE_BASE_URL) are
 * the interpreter's, not the chart's.
 */
async function watchPage(page: Page, appOrigin: string) {
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.addInitScript(() => {
    const violations: unknown[] = [];
    (window as unknown as { __cspViolations: unknown[] }).__cspViolations = violations;
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push({ directive: event.violatedDirective, blockedURI: event.blockedURI, sourceFile: event.sourceFile, line: event.lineNumber, column: event.columnNumber }),
    );
  });
  return {
    requests,
    offOrigin: () =>
      requests.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && !url.startsWith(`${FAKE_MODEL}/mirror/`) && new URL(url).origin !== appOrigin),
    /**
     * The violations, less zod's feature probe: zod tries `Function("")` once, in a try/catch,
     * to learn whether it may compile parsers (the app's own zod, on every page, charts or not).
     */
    violations: async () => {
      const all = await page.evaluate(() => (window as unknown as { __cspViolations: Violation[] }).__cspViolations);
      const unexpected: Violation[] = [];
      for (const violation of all) {
        if (violation.blockedURI === 'eval' && violation.sourceFile.startsWith(appOrigin)) {
          const line = (await (await fetch(violation.sourceFile)).text()).split('\n')[violation.line - 1] ?? '';
          if (line.slice(violation.column - 1).startsWith('Function("")')) continue;
        }
        unexpected.push(violation);
      }
      return unexpected;
    },
  };
}

/**
 * The tests are turns of one conversation in one page (one interpreter), watched from its first
 * load: each reads its own turn's cell; every request and CSP violation of the page counts.
 */
test.describe.configure({ mode: 'serial' });

let page: Page;
let watched: Awaited<ReturnType<typeof watchPage>>;

test.beforeAll(async ({ playwright, baseURL }) => {
  page = await firstPage(await newVisitorContext(playwright, baseURL!));
  watched = await watchPage(page, new URL(baseURL!).origin);
  await openChat(page);
});

test.afterAll(async () => {
  await page.context().close();
});

/** The Python cell the next turn adds. */
async function nextPythonCell() {
  const cells = page.locator('section[data-target="python"]');
  return cells.nth(await cells.count());
}

test('a Vega-Lite spec displayed from Python is an interactive chart: tooltips, no eval, no network, a PNG for the model', async () => {
  const trigger = `e2e-vegalite-bars-${Date.now()}`;
  await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code: BAR_CHART_CODE } } }, { text: 'Pears sold best.' }] }]);
  const cell = await nextPythonCell();
  await send(page, `Chart the fruit. ${trigger}`);

  await expect(cell).toHaveAttribute('data-cell-status', 'ok');
  await expect(cell).toContainText('charted 3 fruits');
  const chart = cell.locator('[data-output="vegalite"]');
  await expect(chart).toHaveAttribute('data-chart-state', 'rendered');
  await expect(chart.locator('svg.marks')).toBeVisible();
  const pears = chart.locator('path[aria-roledescription="bar"][aria-label*="pears"]');
  await expect(chart.locator('path[aria-roledescription="bar"]')).toHaveCount(3);

  // vega-embed's default tooltip handler (vega-tooltip) shows the bar's fields on hover.
  await pears.hover();
  const tooltip = page.locator('#vg-tooltip-element');
  await expect(tooltip).toHaveClass(/visible/);
  await expect(tooltip).toContainText('pears');
  await expect(tooltip).toContainText('7');

  await waitForTurn(page);
  await expect(page.locator('#conversation').getByText('Pears sold best.')).toBeVisible();
  // The chart is still the interactive one once the result (maybe with its PNG) is in.
  await expect(chart).toHaveAttribute('data-chart-state', 'rendered');
  await expect(chart.locator('img')).toHaveCount(0);

  // Drawn under the page's CSP: nothing was blocked (an eval attempt would be a script-src violation).
  expect(await watched.violations()).toEqual([]);
  // Nothing left the page for the chart: every request went to the app's own origin.
  expect(watched.offOrigin()).toEqual([]);

  const requests = await chatRequestsFor(trigger);
  expect(requests).toHaveLength(2);
  const messages = requests[1].body.messages as Message[];
  // This turn's tool message: the conversation's earlier turns come before it.
  const toolIndex = messages.findLastIndex((m) => m.role === 'tool');
  expect(JSON.stringify(messages[toolIndex])).toContain('Vega-Lite bar chart titled');
  expect(JSON.stringify(messages[toolIndex])).toContain('x = fruit (nominal), y = count (quantitative); 3 data rows inline');
  // The run pipeline (lib/targets/pipeline.client.ts) adds the chart's PNG to every result
  // (withChartImages, lib/charts/chart-images.client.ts); without it the model gets the chart in words only.
  expect(JSON.stringify(messages[toolIndex])).toContain('[image 1: shown to the user, attached] (an interactive chart:');
  const imageMessage = messages[toolIndex + 1];
  expect(imageMessage?.role).toBe('user');
  const parts = imageMessage.content as Array<{ type: string; image_url?: { url: string } }>;
  expect(parts.some((p) => p.type === 'image_url' && p.image_url?.url.startsWith('data:image/png;base64,iVBOR'))).toBe(true);
});

test('a chart that names a URL (for its data or an image) is not drawn, says why, and nothing is fetched', async () => {
  const trigger = `e2e-vegalite-remote-${Date.now()}`;
  await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code: URL_CHART_CODE } } }, { text: 'That chart needs inline data.' }] }]);
  const cell = await nextPythonCell();
  await send(page, `Chart the remote file. ${trigger}`);

  const charts = cell.locator('[data-output="vegalite"]');
  await expect(charts).toHaveCount(2);
  await expect(charts.nth(0)).toHaveAttribute('data-chart-state', 'failed');
  await expect(charts.nth(0).getByRole('alert')).toContainText('asks to load a URL (https://example.com/data.csv)');
  await expect(charts.nth(0).getByRole('alert')).toContainText('"data": {"values": [...]}');
  await expect(charts.nth(1)).toHaveAttribute('data-chart-state', 'failed');
  await expect(charts.nth(1).getByRole('alert')).toContainText('asks to load a URL (https://example.com/logo.png)');
  await waitForTurn(page);
  await expect(page.locator('#conversation').getByText('That chart needs inline data.')).toBeVisible();

  expect(watched.requests.filter((url) => url.includes('example.com'))).toEqual([]);
  expect(watched.offOrigin()).toEqual([]);
  expect(await watched.violations()).toEqual([]);

  const [, followUp] = await chatRequestsFor(trigger);
  const tool = JSON.stringify((followUp.body.messages as Message[]).filter((m) => m.role === 'tool').at(-1));
  expect(tool).toContain('asks for data from https://example.com/data.csv');
  expect(tool).not.toContain('image_url');
});
