import { expect, request as playwrightRequest, test, type APIRequestContext } from './test';
import { seriousViolations } from './axe';
import { addScenarios, chatRequestsFor, send, waitForTurn } from './helpers';

/**
 * Teams, end to end, on the main server (open, accounts with passwords): three accounts. The owner
 * makes a project with instructions and a dataset over HTTP and adds a member who can use it; the
 * member, on the pages, starts a conversation in it (the instructions reach the model, the dataset
 * is in /data) and cannot change its instructions; the third account gets a 404 for the project,
 * its conversations and its files; a conversation shared to the member alone is theirs to read (and
 * to continue in a copy of their own) and a 404 for the third; removed, the member is refused at
 * once, yet reads, as the reader of the owner's conversation in the project, the dataset it used.
 * On the project's page an email with no account is invited (listed as Invited) and removed.
 */
test.describe.configure({ mode: 'serial' });

const run = crypto.randomUUID().slice(0, 8);
const EMAIL = { owner: `owner-${run}@example.com`, member: `m'ember+${run}@example.com`, third: `third-${run}@example.com` };
const INSTRUCTIONS = `Answer in French. « Toujours » "quoted" — marker INSTR-${run}`;
const CSV = 'région,montant\n"Île ""Nord""",12\n数据,30\n';

/** Makes an account with a password and signs this context in (better-auth's own endpoint; its limiter may ask to wait). */
async function signUp(request: APIRequestContext, origin: string, email: string): Promise<void> {
  await expect
    .poll(async () => (await request.post('/api/auth/sign-up/email', { data: { name: email.split('@')[0], email, password: `password of ${email}` }, headers: { origin } })).status(), { intervals: [1_000, 2_000, 5_000] })
    .toBe(200);
}

test('a project shared to a member who can use it: the member works in it on the pages; a third account gets 404 for all of it; removal ends access at once', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const owner = await playwrightRequest.newContext({ baseURL });
  const third = await playwrightRequest.newContext({ baseURL });
  try {
    await signUp(owner, origin, EMAIL.owner);
    await signUp(page.request, origin, EMAIL.member);
    await signUp(third, origin, EMAIL.third);

    // The owner, over HTTP: a project with instructions and a dataset, and the member as Can use.
    const made = await owner.post('/api/projects', { data: { name: `Ventes “Q3” ${run}`, instructions: INSTRUCTIONS } });
    expect(made.status()).toBe(201);
    const { id: projectId } = (await made.json()) as { id: string };
    const upload = await owner.post(`/api/projects/${projectId}/files`, { data: Buffer.from(CSV), headers: { 'x-file-name': encodeURIComponent('ventes.csv'), 'content-type': 'text/csv' } });
    expect(upload.status()).toBe(201);
    const dataset = (await upload.json()) as { id: string; sha256: string };
    const added = await owner.post(`/api/projects/${projectId}/members`, { data: { email: EMAIL.member.toUpperCase(), role: 'use' } });
    expect(added.status()).toBe(201);
    const { id: memberId } = (await added.json()) as { id: string };

    // The member's page: its instructions and dataset, no control that changes them; the server refuses anyway.
    await page.goto(`/p/${projectId}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Ventes “Q3” ${run}`);
    await expect(page.getByTestId('project-instructions')).toHaveText(INSTRUCTIONS);
    await expect(page.getByRole('list', { name: 'Datasets' }).getByTestId('project-dataset')).toContainText('ventes.csv');
    await expect(page.getByRole('button', { name: 'Edit instructions' })).toHaveCount(0);
    await expect(page.getByText('Add a dataset')).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    const refused = await page.request.patch(`/api/projects/${projectId}`, { data: { instructions: 'Ignore the owner.' }, headers: { origin } });
    expect([refused.status(), ((await refused.json()) as { error: string }).error]).toEqual([403, expect.stringMatching(/Your role in this project does not allow that/)]);

    // New chat in this project: the instructions reach the model, the dataset is in /data.
    const trigger = `e2e-project-${run}`;
    const code = 'import csv, os\nprint(sorted(os.listdir("/data")))\nwith open("/data/ventes.csv", newline="") as f:\n    print("total:", sum(int(r["montant"]) for r in csv.DictReader(f)))';
    await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code } } }, { echoToolResult: true }] }]);
    await page.getByRole('link', { name: 'New chat in this project' }).click();
    await expect(page).toHaveURL(new RegExp(`/\\?project=${projectId}$`));
    await expect(page.getByTestId('project-datasets')).toContainText('ventes.csv');
    await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 60_000 });
    await send(page, `What is the total? ${trigger}`);
    await expect(page.getByTestId('cell-outputs')).toContainText("['ventes.csv']");
    await expect(page.getByTestId('cell-outputs')).toContainText('total: 42');
    await waitForTurn(page);
    const [first] = await chatRequestsFor(trigger);
    const sent = JSON.stringify(first!.body.messages);
    expect(sent).toContain(JSON.stringify(INSTRUCTIONS).slice(1, -1));
    expect(sent).toContain('/data/ventes.csv');
    await expect(page).toHaveURL(/\/c\/[0-9a-f-]{36}$/);
    const memberConversation = new URL(page.url()).pathname.split('/').at(-1)!;
    await page.goto(`/p/${projectId}`);
    await expect(page.getByRole('region', { name: 'Your conversations in it' }).getByRole('link')).toHaveCount(1);

    // A conversation of the owner's, shared to the member alone.
    const shared = crypto.randomUUID();
    const question = `shared question ${run}`;
    const chatted = await owner.post('/api/chat', { data: { id: shared, message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: question }] } } });
    expect(chatted.status()).toBe(200);
    await chatted.body();
    expect((await owner.post(`/api/conversations/${shared}/readers`, { data: { email: EMAIL.member } })).status()).toBe(201);
    await page.goto(`/c/${shared}`);
    await expect(page.getByText(question, { exact: true })).toBeVisible();
    // The member continues it in a copy of their own, at its own address.
    await page.getByRole('button', { name: 'Continue in my own chat' }).click();
    await expect(page).toHaveURL((url) => /^\/c\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(shared));
    await expect(page.getByText(question, { exact: true })).toBeVisible();

    // A conversation of the owner's in the project, shared to the member: it used the dataset (added before its message).
    const inProject = crypto.randomUUID();
    const projectChat = await owner.post('/api/chat', { data: { id: inProject, projectId, message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: `in the project ${run}` }] } } });
    expect(projectChat.status()).toBe(200);
    await projectChat.body();
    expect((await owner.post(`/api/conversations/${inProject}/readers`, { data: { email: EMAIL.member } })).status()).toBe(201);

    // The third account: the same 404 for the project, its page, its files (by id and by hash), its conversations and the shared one.
    const hidden = [
      `/p/${projectId}`,
      `/api/projects/${projectId}`,
      `/api/projects/${projectId}/files`,
      `/api/projects/${projectId}/files/${dataset.id}`,
      `/api/blobs/${dataset.sha256}?project=${projectId}`,
      `/api/blobs/${dataset.sha256}`,
      `/c/${memberConversation}`,
      `/api/conversations/${memberConversation}`,
      `/c/${shared}`,
      `/api/conversations/${shared}`,
      `/c/${inProject}`,
      `/api/blobs/${dataset.sha256}?conversation=${inProject}`,
      `/api/blobs/${dataset.sha256}?dataset=${dataset.id}`,
    ];
    for (const path of hidden) expect([path, (await third.get(path, { maxRedirects: 0 })).status()]).toEqual([path, 404]);
    expect((await third.post('/api/chat', { data: { id: crypto.randomUUID(), projectId, message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'let me in' }] } } })).status()).toBe(404);

    // The member reads the dataset's bytes; removed, they are refused on their very next request.
    expect(await (await page.request.get(`/api/projects/${projectId}/files/${dataset.id}`)).text()).toBe(CSV);
    expect((await owner.delete(`/api/projects/${projectId}/members/${memberId}`)).status()).toBe(204);
    for (const path of [`/p/${projectId}`, `/api/blobs/${dataset.sha256}?project=${projectId}`]) expect([path, (await page.request.get(path, { maxRedirects: 0 })).status()]).toEqual([path, 404]);
    // Still the reader of the owner's conversation in the project: the dataset it used, read-only, by hash through it and by id; nothing else of the project.
    expect(await (await page.request.get(`/api/blobs/${dataset.sha256}?conversation=${inProject}`)).text()).toBe(CSV);
    expect(await (await page.request.get(`/api/projects/${projectId}/files/${dataset.id}`)).text()).toBe(CSV);
    for (const path of [`/api/projects/${projectId}`, `/api/projects/${projectId}/files`]) expect([path, (await page.request.get(path)).status()]).toEqual([path, 404]);
    // Their own conversation stays theirs to read, without the project's datasets, and cannot continue.
    await page.goto(`/c/${memberConversation}`);
    await expect(page.getByTestId('cell-outputs')).toContainText('total: 42');
    await expect(page.getByTestId('project-datasets')).toHaveCount(0);
  } finally {
    await owner.dispose();
    await third.dispose();
  }
});

test('the project’s page at 1280 and 390 pixels wide, by keyboard', async ({ page, baseURL }, testInfo) => {
  const origin = new URL(baseURL!).origin;
  await signUp(page.request, origin, `looker-${run}@example.com`);
  const made = await page.request.post('/api/projects', { data: { name: `Looks ${run}`, instructions: 'Use metric units.\nCite the file.' }, headers: { origin } });
  const { id } = (await made.json()) as { id: string };
  await page.request.post(`/api/projects/${id}/files`, { data: Buffer.from(CSV), headers: { 'x-file-name': 'ventes.csv', 'content-type': 'text/csv', origin } });
  const kept = { name: 'clients.parquet', size: 123_456, sha256: 'c'.repeat(64), columns: [{ name: 'client', type: 'VARCHAR' }, { name: 'since', type: 'DATE' }], header: true };
  await page.request.post(`/api/projects/${id}/device-files`, { data: kept, headers: { origin } });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/p/${id}`);
    await expect(page.getByTestId('project-dataset')).toHaveCount(2);
    await expect(page.getByTestId('device-copy')).toHaveText('Needs your copy');
    // No part of the page is wider than the window.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`project-${width}.png`), fullPage: true });
  }
  // Someone without an account yet, invited by email on the page: listed as Invited (no mail server here: the page says to tell them), and removed.
  const invitee = `Invitée.${run}@Example.com`;
  await page.getByLabel('Add a member by email').fill(invitee);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'no email was sent' })).toContainText(invitee.toLowerCase());
  const invited = page.getByRole('list', { name: 'Members' }).getByRole('listitem').filter({ hasText: invitee.toLowerCase() });
  await expect(invited).toContainText('Invited');
  expect(await seriousViolations(page)).toEqual([]);
  await invited.getByRole('button', { name: `Remove ${invitee.toLowerCase()}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'is removed' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Members' })).toHaveCount(0);
  // By keyboard: Tab reaches the instructions' editor, and it saves.
  await page.getByRole('button', { name: 'Edit instructions' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('textbox', { name: 'Instructions' })).toBeFocused();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' Round to cents.');
  await page.getByRole('button', { name: 'Save instructions' }).press('Enter');
  await expect(page.getByTestId('project-instructions')).toContainText('Round to cents.');
});
