import { expect, test } from './test';
import { addScenarios, dropCsv, openChat, requestsFor, send, waitForTurn } from './helpers';
import { plantedValues, quotedCsv } from '../lib/testing/planted-values';

/**
 * The allow-list through the browser's own engines (README, "What the model sees"): with only the
 * shape of the data sent, values planted in dropped files (every kind of quote, apostrophes,
 * commas, digits, non-Latin letters, line breaks) go through R's stop() and warnings (R quotes
 * with ‘…’), a data frame whose columns are values, a plot's title, DuckDB-wasm's pivots and
 * errors, a Vega-Lite chart's title and fields, Graphviz labels and Graphviz's own error, and
 * JavaScript; no request the provider receives holds one, and the column names of the header row
 * (and the reader's names for the file without one) still reach it. The same property over
 * CPython and native DuckDB, with 40 shapes: lib/chat/model-sees.test.ts.
 */
test('under schema no planted value reaches the provider from R, DuckDB-wasm, Vega-Lite, Graphviz or JavaScript; header names do', async ({ page }) => {
  test.setTimeout(600_000); // R and DuckDB start on their first cells
  const { words, value, digits } = plantedValues(Date.now() % 100_000);
  const people = quotedCsv([['name', 'city', 'amount'], ...Array.from({ length: 5 }, () => [value(), value(), Number(digits())])]);
  const raw = quotedCsv(Array.from({ length: 3 }, () => [value(), Number(digits())]));
  // Two triggers, neither inside the other: the fake model answers the first scenario whose trigger a message contains.
  const stamp = Date.now();
  const trigger = `e2e-model-sees-engines-${stamp}`;
  const more = `e2e-model-sees-more-${stamp}`;
  const read = 'import csv\nrows = list(csv.DictReader(open("/data/people.csv", newline="")))\n';
  const readR = 'd <- read.csv("/data/people.csv")\n';
  type Call = { name: string; code: string };
  // Two messages, each within the turn's budget of code runs.
  const first: Call[] = [
    { name: 'r', code: `${readR}stop(paste("unexpected", d$name[1]))` },
    { name: 'r', code: `${readR}warning(d$city[2])\nnrow(d)` },
    { name: 'r', code: `${readR}get(d$name[3])` },
    { name: 'r', code: `${readR}as.data.frame.matrix(table(d$city, d$name))` },
    { name: 'sql', code: 'PIVOT people ON name USING sum(amount)' },
    { name: 'sql', code: 'SELECT CAST(city AS INTEGER) FROM people' },
    { name: 'sql', code: 'SELECT error(name) FROM people' },
  ];
  const second: Call[] = [
    { name: 'sql', code: 'SELECT * FROM raw' },
    {
      name: 'python',
      code: `${read}spec = {"title": rows[0]["name"], "data": {"values": [{rows[1]["city"]: 1, "n": 2}]}, "mark": "bar", "encoding": {"x": {"field": rows[1]["city"], "type": "nominal", "title": rows[2]["city"]}, "y": {"field": "n", "type": "quantitative"}}}\ndisplay({"application/vnd.vegalite.v5+json": spec}, raw=True)`,
    },
    { name: 'python', code: `${read}display({"text/vnd.graphviz": 'digraph { "%s" -> "%s" }' % (rows[0]["name"].replace('"', ''), rows[1]["city"].replace('"', ''))}, raw=True)` },
    { name: 'python', code: `${read}display({"text/vnd.graphviz": "digraph { %s -> }" % rows[2]["name"]}, raw=True)` },
    { name: 'graphviz', code: 'digraph { people -> }' },
    { name: 'javascript', code: 'const sizes = [3, 4];\nthrow new RangeError(`too many: ${sizes.length}`)' },
  ];
  const steps = (calls: Call[], done: string) => [...calls.map((call) => ({ toolCall: { name: call.name, arguments: { code: call.code } } })), { text: done }];
  await addScenarios([
    { trigger, steps: steps(first, 'R and SQL ran.') },
    { trigger: more, steps: steps(second, 'Every engine ran.') },
  ]);
  await page.addInitScript(() => localStorage.setItem('runpad:settings', JSON.stringify({ modelSees: 'schema' })));
  await openChat(page);
  await dropCsv(page, 'people.csv', people);
  await dropCsv(page, 'raw.csv', raw);
  await send(page, `Look at the people. ${trigger}`);
  await expect(page.locator('#conversation').getByText('R and SQL ran.')).toBeVisible({ timeout: 300_000 });
  await waitForTurn(page);
  await send(page, `And draw them. ${more}`);
  await expect(page.locator('#conversation').getByText('Every engine ran.')).toBeVisible({ timeout: 300_000 });
  await waitForTurn(page);
  // The person sees the values (here, in R's error).
  await expect(page.locator('section[data-target="r"]').first()).toContainText('unexpected');

  const received = JSON.stringify([...(await requestsFor(trigger)), ...(await requestsFor(more))].map((request) => request.body));
  // The runs did put values in their outputs: the page shows them.
  const shown = await page.locator('#conversation').innerText();
  expect(words.filter((planted) => shown.includes(planted)).length).toBeGreaterThan(0);
  expect(words.filter((planted) => received.includes(planted))).toEqual([]);
  // What the model knows still reaches it: the header row's names and types, the reader's names for the file without one.
  expect(received).toContain('columns name (string), city (string), amount (integer)');
  expect(received).toContain('column0 (string), column1 (integer)');
  expect(received).toContain('Error');
});
