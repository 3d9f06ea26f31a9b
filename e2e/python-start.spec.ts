import { BUILT_SNAPSHOT_PATH as BUILT_SNAPSHOT, expect, test, type BrowserContext, type Page } from './test';
import { addScenarios, openChat, send, waitForTurn } from './helpers';
import { SNAPSHOT_CACHE_NAME } from '../lib/targets/python/worker-url';

/**
 * How Python starts on a first visit (lib/targets/python/engine/interpreter.ts): from the memory snapshot the build
 * made (scripts/build-snapshot.mjs), kept for the next start; without it, or when it does not load,
 * Python is initialised in the browser and makes a snapshot of its own. Every interpreter restored
 * from a snapshot draws its own random numbers.
 */
test.use({ firstVisit: true });

const DRAW = 'import random, sys\nprint("draw", random.random())\nprint("package", "runpad.kernel" in sys.modules)';

/** Runs `code` through the fake model and returns the cell's printed text. */
async function run(page: Page, code: string): Promise<string> {
  const trigger = `e2e-start-${Math.random().toString(36).slice(2)}`;
  await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code } } }, { text: 'Done.' }] }]);
  await send(page, `Run it. ${trigger}`);
  const cell = page.getByRole('region', { name: 'Python code cell' }).last();
  await expect(cell).toHaveAttribute('data-cell-status', 'ok');
  await waitForTurn(page);
  return cell.getByTestId('cell-outputs').innerText();
}

const keptSnapshots = (page: Page) => page.evaluate(async (name) => (await (await caches.open(name)).keys()).length, SNAPSHOT_CACHE_NAME);

function builtSnapshotAnswers(context: BrowserContext): number[] {
  const statuses: number[] = [];
  context.on('response', (response) => {
    if (BUILT_SNAPSHOT.test(new URL(response.url()).pathname)) statuses.push(response.status());
  });
  return statuses;
}

test("a first visit starts Python from the build's snapshot, keeps it, and every restored interpreter draws its own numbers", async ({ page, context }) => {
  const answers = builtSnapshotAnswers(context);
  await openChat(page);
  expect(answers).toEqual([200]);
  const first = await run(page, DRAW);
  expect(first).toContain('package True');
  await expect.poll(() => keptSnapshots(page)).toBeGreaterThan(0);

  // A fresh interpreter, restored from the kept snapshot this time (not fetched again).
  await page.getByRole('button', { name: 'Restart' }).click();
  await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 60_000 });
  const second = await run(page, DRAW);
  expect(answers).toEqual([200]);
  const draw = (text: string) => /draw (\S+)/.exec(text)?.[1];
  expect(draw(second)).toBeTruthy();
  expect(draw(second)).not.toBe(draw(first));
});

test("without the build's snapshot, Python starts from scratch and keeps a snapshot of its own", async ({ page, context }) => {
  await context.route(BUILT_SNAPSHOT, (route) => route.fulfill({ status: 404, body: 'missing' }));
  await openChat(page);
  expect(await run(page, DRAW)).toContain('package True');
  await expect.poll(() => keptSnapshots(page)).toBeGreaterThan(0);
});

test("a damaged snapshot from the build is set aside: Python starts from scratch", async ({ page, context }) => {
  await context.route(BUILT_SNAPSHOT, (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: Buffer.alloc(4096, 7) }));
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await openChat(page);
  expect(await run(page, DRAW)).toContain('package True');
  expect(warnings.some((text) => text.includes('snapshot did not load'))).toBe(true);
});
