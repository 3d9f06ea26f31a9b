import { expect, test, type Locator, type Page, newVisitorContext, firstPage } from './test';
import { addScenarios, openChat, PNG_CHART_CODE, send, shareLink, waitForTurn } from './helpers';
import { seriousViolations } from './axe';

/**
 * Accessibility (axe, WCAG 2.1 A/AA) of a conversation holding every kind of output — stdout,
 * stderr, a PNG, a table, an error with its traceback, a Graphviz diagram, a Vega-Lite chart, a
 * file from /output/ and a SQL cell — and of its share page, in light and dark mode. Every
 * output is waited for (its state attribute, its image decoded) before axe looks.
 */

const STREAMS_IMAGE_FILE_CODE = `import sys
print("rows read: 1,204")
print("warning: 3 rows had no date", file=sys.stderr)
${PNG_CHART_CODE}
with open("/output/summary.csv", "w") as f:
    f.write("region,units\\nnorth,20\\nsouth,30\\n")
`;

const CHART_CODE = `display({"application/vnd.vegalite.v5+json": {
    "title": "Units per region",
    "data": {"values": [{"region": "north", "units": 20}, {"region": "south", "units": 30}, {"region": "west", "units": 50}]},
    "mark": {"type": "bar", "tooltip": True},
    "encoding": {"x": {"field": "region", "type": "nominal"}, "y": {"field": "units", "type": "quantitative"}},
}}, raw=True)
`;

const SQL_QUERY = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120)
SELECT i AS id, CASE i % 3 WHEN 0 THEN 'north' WHEN 1 THEN 'south' ELSE 'west' END AS region, i * 1520.25 AS revenue, NULL AS note
FROM n ORDER BY i`;

const DOT = 'digraph pipeline {\n  rankdir=LR;\n  read -> clean -> chart;\n  clean -> table;\n}';

const ERROR_CODE = `def parse(value):
    return int(value)

def total(values):
    return sum(parse(v) for v in values)

total(["1", "two"])
`;

const ANSWER = 'Every output is above.';

/** Waits until each output of the conversation (or its share page) has finished rendering. */
async function waitForEveryOutput(page: Page) {
  const cells = page.locator('section[data-target]');
  await expect(cells).toHaveCount(5);
  const [streams, chart, sql, diagram, failure] = [0, 1, 2, 3, 4].map((i) => cells.nth(i));
  for (const cell of [streams, chart, sql, diagram]) await expect(cell).toHaveAttribute('data-cell-status', 'ok');
  await expect(failure).toHaveAttribute('data-cell-status', 'error');

  await expect(streams.locator('[data-stream="stdout"]').first()).toContainText('rows read: 1,204');
  await expect(streams.locator('[data-stream="stderr"]')).toContainText('warning: 3 rows had no date');
  await expectLoaded(streams.getByRole('img', { name: 'Figure 1' }));
  await expect(streams.locator('a[data-output="file"]')).toContainText('summary.csv');
  await expect(chart.locator('[data-output="vegalite"]')).toHaveAttribute('data-chart-state', 'rendered');
  await expect(chart.locator('[data-output="vegalite"] svg.marks')).toBeVisible();
  await expect(sql).toHaveAttribute('data-target', 'sql');
  await expect(sql.getByTestId('table-output')).toHaveAttribute('data-row-count', '120');
  await expectLoaded(diagram.getByRole('img', { name: /Diagram/ }));
  await expect(failure).toContainText("ValueError: invalid literal for int() with base 10: 'two'");
  // The traceback is part of the page too: open it.
  await failure.getByRole('button', { name: 'Show traceback' }).click();
  await expect(failure.getByRole('button', { name: 'Hide traceback' })).toHaveAttribute('aria-expanded', 'true');
  await expect(failure.locator('pre')).toContainText('in parse');
  await expect(page.getByText(ANSWER)).toBeVisible();
}

/** An image that has been fetched and decoded (a blob URL after a reload, a data URL live). */
async function expectLoaded(image: Locator) {
  await expect(image).toBeVisible();
  await expect(image).toHaveJSProperty('complete', true);
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
}

/**
 * The conversation scrolls inside <main>, not the document: a window as tall as its content puts
 * every output on screen at once, for axe's contrast checks and for one screenshot of it all.
 */
async function showWholeConversation(page: Page) {
  const { content, visible } = await page.locator('#conversation').evaluate((main) => ({ content: main.scrollHeight, visible: main.clientHeight }));
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.setViewportSize({ width: viewport.width, height: viewport.height + content - visible });
  await expect.poll(() => page.locator('#conversation').evaluate((main) => main.scrollHeight - main.clientHeight)).toBeLessThanOrEqual(1);
}

/** Opens the page in `scheme` (the theme is read from the media query at load) and checks it with axe. */
async function expectAccessibleIn(page: Page, scheme: 'light' | 'dark', name: string) {
  await page.emulateMedia({ colorScheme: scheme });
  await page.reload();
  expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
  await waitForEveryOutput(page);
  // The chat scrolls inside <main>; the share page is one document.
  if (name === 'conversation') await showWholeConversation(page);
  await page.screenshot({ path: test.info().outputPath(`${name}-${scheme}.png`), fullPage: name !== 'conversation' });
  expect(await seriousViolations(page)).toEqual([]);
}

// One conversation, looked at in light and in dark mode (a reload in the other scheme shows the
// stored outputs), and its share page likewise: running every engine once per scheme bought nothing.
test('a conversation with every kind of output, and its share page, pass axe in light and dark mode', { tag: '@long' }, async ({ page, playwright, baseURL }) => {
  test.setTimeout(420_000);
  const trigger = `e2e-a11y-every-output-${Date.now()}`;
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'python', arguments: { code: STREAMS_IMAGE_FILE_CODE } } },
        { toolCall: { name: 'python', arguments: { code: CHART_CODE } } },
        { toolCall: { name: 'sql', arguments: { code: SQL_QUERY } } },
        { toolCall: { name: 'graphviz', arguments: { code: DOT } } },
        { toolCall: { name: 'python', arguments: { code: ERROR_CODE } } },
        { text: ANSWER },
      ],
    },
  ]);
  await page.emulateMedia({ colorScheme: 'light' });
  await openChat(page);
  await send(page, `Show me every kind of output. ${trigger}`);
  await waitForTurn(page);
  // Live, as the outputs arrived, before any reload.
  await waitForEveryOutput(page);
  await showWholeConversation(page);
  expect(await seriousViolations(page)).toEqual([]);
  await expect(page).toHaveURL(/\/c\/[0-9a-f-]{36}$/);
  for (const scheme of ['light', 'dark'] as const) await expectAccessibleIn(page, scheme, 'conversation');

  // The share page of the same conversation, opened by a visitor.
  const shareUrl = await shareLink(page);
  const visitorContext = await newVisitorContext(playwright, baseURL!);
  const visitor = await firstPage(visitorContext);
  await visitor.goto(shareUrl);
  for (const scheme of ['light', 'dark'] as const) await expectAccessibleIn(visitor, scheme, 'share');
  await visitorContext.close();
});
