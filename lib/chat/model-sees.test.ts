/**
 * What the model sees, through the real chat handler (route() and handleChat, embedded PGlite):
 * under `schema`, a value planted in a dropped file's preview and in a run's outputs reaches no
 * request the model receives, while column names and an error do; the conversation cannot be
 * widened again by a request; the operator's RUNPAD_MODEL_SEES applies with no setting at all; and
 * the record of what was sent holds the text the model received.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DbHandle } from '@/lib/db/client.server';
import type { Logger } from '@/lib/log/logger.server';
import { capturedLog } from '@/lib/testing/captured-log';
import { migratedDataDir } from '@/lib/testing/migrated-data-dir';
import { plantedValues, quotedCsv } from '@/lib/testing/planted-values';

const SECRET = 'ZEBRA-4417';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

vi.mock('@/lib/ai/provider.server', async () => (await import('@/lib/testing/recording-model')).recordingProvider);
const { recording: model } = await import('@/lib/testing/recording-model');

const preview = `/sales.csv (1 KB, CSV, 2 rows): columns customer (string), amount (number)\nfirst 1 row:\ncustomer | amount\n${SECRET} | 10`;
const runResult = {
  status: 'error',
  durationMs: 20,
  outputs: [
    { output_type: 'stream', name: 'stdout', text: `customer ${SECRET}\n` },
    { output_type: 'display_data', data: { 'application/vnd.dataresource+json': { schema: { fields: [{ name: 'customer', type: 'string' }] }, data: [{ customer: SECRET }] } } },
    { output_type: 'display_data', data: { 'image/png': PNG } },
    { output_type: 'error', ename: 'KeyError', evalue: `'${SECRET}'`, traceback: [] },
  ],
};

describe('what the model sees, through the chat handler', () => {
  let dataDir: string;
  const { log } = capturedLog();

  beforeAll(() => {
    dataDir = migratedDataDir('runpad-model-sees-');
    vi.stubEnv('DATABASE_URL', '');
    vi.stubEnv('REDIS_URL', '');
    vi.stubEnv('RUNPAD_DATA_DIR', dataDir);
    vi.stubEnv('S3_BUCKET', '');
    vi.stubEnv('RUNPAD_MODELS', '');
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('OPENAI_BASE_URL', '');
    vi.stubEnv('RUNPAD_MODEL_SEES', '');
    vi.resetModules();
    (globalThis as unknown as { runpadLogger?: Logger }).runpadLogger = log;
  });
  afterAll(async () => {
    const app = globalThis as unknown as { runpadDb?: Promise<DbHandle>; runpadBlobStore?: unknown; runpadStreams?: Promise<{ streams: { close(): Promise<void> }; registry: { close(): Promise<void> } }>; runpadRateLimits?: unknown };
    const [db, streams] = [app.runpadDb, app.runpadStreams];
    Object.assign(app, { runpadDb: undefined, runpadBlobStore: undefined, runpadStreams: undefined, runpadRateLimits: undefined });
    await streams?.then(async ({ streams: context, registry }) => Promise.all([context.close(), registry.close()]));
    await db?.then((h) => h.close());
    vi.unstubAllEnvs();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function guest() {
    const { getDb } = await import('@/lib/db/client.server');
    const { getPerson, insertGuest } = await import('@/lib/db/queries/users.server');
    const db = await getDb();
    const id = crypto.randomUUID();
    await insertGuest(db, id);
    const person = (await getPerson(db, id))!;
    return { userId: id, kind: 'guest' as const, email: null, name: null, isAdmin: false, sessionId: null, person, address: '192.0.2.8' };
  }

  /** POST /api/chat as route() answers it, read to its end. */
  async function chat(identity: Awaited<ReturnType<typeof guest>>, body: unknown): Promise<string> {
    const { postChat } = await import('@/lib/testing/chat-in-process');
    const { response, body: text } = await postChat(identity, body);
    expect(response.status).toBe(200);
    return text;
  }

  async function storedAnswer(conversationId: string) {
    const { getDb } = await import('@/lib/db/client.server');
    const { listMessages } = await import('@/lib/db/queries/messages.server');
    let answer: { id: string; parts: unknown[]; metadata?: unknown } | undefined;
    await vi.waitFor(async () => {
      answer = (await listMessages(await getDb(), conversationId)).find((m) => m.role === 'assistant' && JSON.stringify(m.metadata ?? {}).includes('"streaming":true') === false);
      expect(answer).toBeDefined();
    }, { timeout: 20_000, interval: 100 });
    return answer!;
  }

  /** A turn: the user's message with a dropped file, the model's python call, its outputs, the model's answer. */
  async function turn(identity: Awaited<ReturnType<typeof guest>>, conversationId: string, settings: Record<string, unknown>, outputSettings: Record<string, unknown>) {
    model.next.push('call', 'text');
    const user = { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'summarise the sales' }], metadata: { files: [{ name: 'sales.csv', size: 1024, mediaType: 'text/csv', sha256: 'c'.repeat(64), preview, columns: [{ name: 'customer', type: 'string' }, { name: 'amount', type: 'number' }], header: true }] } };
    await chat(identity, { id: conversationId, message: user, settings });
    const called = await storedAnswer(conversationId);
    const parts = (called.parts as Array<Record<string, unknown>>).map((part) => (part.type === 'tool-python' ? { ...part, state: 'output-available', output: runResult } : part));
    await chat(identity, { id: conversationId, message: { id: called.id, role: 'assistant', parts, metadata: called.metadata }, settings: outputSettings });
    return called.id;
  }

  it('under schema (asked for by the conversation) no value reaches the model; names and the error do; a request cannot widen it; the record is what the model got', async () => {
    const identity = await guest();
    const conversationId = crypto.randomUUID();
    model.prompts.length = 0;
    // The first request asks for schema; the second (the outputs) asks for outputs: it cannot widen it.
    const answerId = await turn(identity, conversationId, { modelSees: 'schema' }, { modelSees: 'outputs' });
    expect(model.prompts).toHaveLength(2);
    const received = JSON.stringify(model.prompts);
    expect(received).not.toContain(SECRET);
    expect(received).not.toContain(PNG);
    expect(received).toContain('columns customer (string), amount (number)');
    expect(received).toContain('error: KeyError: <value>');
    expect(received).toContain('a table of 1 rows × 1 columns; columns: customer (string)');
    expect(received).toContain('display: a figure shown to the user (PNG); its image is not sent');

    // The record: one per request, under the answer, each text item exactly as the model received it.
    const { getDb } = await import('@/lib/db/client.server');
    const { listModelInputs, modelInputTotals } = await import('@/lib/db/queries/model-inputs.server');
    const records = await listModelInputs(await getDb(), conversationId, answerId);
    expect(records.map((r) => r.modelSees)).toEqual(['schema', 'schema']);
    for (const [index, record] of records.entries()) {
      const prompt = JSON.stringify(model.prompts[index]);
      expect(prompt).toContain(JSON.stringify(record.content.system).slice(1, -1));
      for (const message of record.content.messages) {
        for (const item of message.items) {
          if (item.kind !== 'text' || item.text === '') continue;
          // A call's input is sent as the JSON text recorded; the prompt holds it parsed.
          if (item.label.startsWith('call of ')) expect(prompt).toContain(`"input":${item.text}`);
          else expect(prompt).toContain(JSON.stringify(item.text).slice(1, -1));
        }
      }
      const texts = [record.content.system, ...record.content.messages.flatMap((m) => m.items.flatMap((i) => (i.kind === 'text' ? [i.text] : [])))];
      expect(record.textBytes).toBe(texts.reduce((n, t) => n + Buffer.byteLength(t, 'utf8'), 0));
      expect(record.imageBytes).toBe(0);
    }
    const totals = await modelInputTotals(await getDb(), conversationId);
    expect(totals.requests).toBe(2);
    expect(totals.textBytes).toBe(records[0].textBytes + records[1].textBytes);
    // The answer says under which policy it was written.
    expect((await storedAnswer(conversationId)).metadata).toMatchObject({ modelSees: 'schema' });
  });

  it('under outputs (the default) the same turn does reach the model: the test above can fail', async () => {
    const identity = await guest();
    model.prompts.length = 0;
    await turn(identity, crypto.randomUUID(), {}, {});
    const received = JSON.stringify(model.prompts);
    expect(received).toContain(SECRET);
    expect(received).toContain(PNG);
  });

  it("the operator's RUNPAD_MODEL_SEES=schema applies with no setting, and a request cannot widen it", async () => {
    vi.stubEnv('RUNPAD_MODEL_SEES', 'schema');
    vi.resetModules(); // the configuration is read once per module instance
    const identity = await guest();
    model.prompts.length = 0;
    await turn(identity, crypto.randomUUID(), { modelSees: 'outputs' }, { modelSees: 'outputs' });
    expect(JSON.stringify(model.prompts)).not.toContain(SECRET);
    vi.stubEnv('RUNPAD_MODEL_SEES', '');
  });

  it("a kept file's rows stay on the device: the server stores, returns and shares its name, size, hash, columns and types, never a row", async () => {
    const identity = await guest();
    const conversationId = crypto.randomUUID();
    model.prompts.length = 0;
    const { sniffTable, previewToText } = await import('@/lib/files/sniff.client');
    const rows = [`${SECRET},12,“${SECRET}-b”`, `O’Brien ${SECRET}-c,13,x`, `"${SECRET}-d, jr",14,y`];
    for (const text of [`customer,amount,note\n${rows.join('\n')}\n`, `${rows.join('\n')}\n`]) {
      const table = sniffTable(text, { fileName: 'kept.csv', complete: true })!;
      // As a page before this rule sent it: the preview with first rows, and the headerless file's first row as names.
      const names = text.split('\n', 1)[0].split(',');
      const kept = { name: 'kept.csv', size: text.length, mediaType: 'text/csv', sha256: 'd'.repeat(64), location: 'device', preview: previewToText('data/kept.csv', text.length, table), columns: table.columns.map((c, i) => ({ name: names[i], type: c.type })), header: table.header };
      await chat(identity, { id: conversationId, message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'look' }], metadata: { files: [kept] } }, settings: {} });
      await storedAnswer(conversationId);
    }
    const { getDb } = await import('@/lib/db/client.server');
    const { listMessages, upsertMessage } = await import('@/lib/db/queries/messages.server');
    const db = await getDb();
    // A record stored before the rule, with its rows, is read back without them.
    const legacy = { name: 'old.csv', size: 10, mediaType: 'text/csv', sha256: 'e'.repeat(64), location: 'device', preview: `/data/old.csv: columns a (string)\nfirst 1 row:\na\n${SECRET}-legacy` };
    expect(await upsertMessage(db, identity.userId, conversationId, { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'old' }], metadata: { files: [legacy] } })).toBe(true);
    // What GET /api/conversations/<id> returns, and what the share page shows.
    const stored = JSON.stringify(await listMessages(db, conversationId));
    const { createOrUpdateShare, getShare } = await import('@/lib/db/queries/shares.server');
    const shareId = (await createOrUpdateShare(db, identity.userId, conversationId))!;
    const shared = JSON.stringify(await getShare(db, shareId));
    const sent = JSON.stringify(model.prompts);
    for (const [where, text] of [['stored and returned', stored], ['shared', shared], ['sent to the model', sent]] as const) {
      expect(text, where).not.toContain(SECRET);
      expect(text, where).not.toContain('Brien');
      expect(text, where).toContain('kept.csv');
    }
    // The hash: stored as the page gave it; a share shows it salted for its link.
    expect(stored).toContain('d'.repeat(64));
    expect(shared).toMatch(/"sha256":"[0-9a-f]{64}"/);
    // What it may hold: the header row's names and the types; a headerless file's reader names.
    expect(stored).toContain('{"name":"customer","type":"string"}');
    expect(stored).toContain('{"name":"column0","type":"string"},{"name":"column1","type":"integer"}');
  });

  /**
   * The allow-list, as a property: values generated with every kind of quote, apostrophes, spaces,
   * commas, digits, non-Latin letters and line breaks are planted in dropped files; the model's
   * code (40 shapes that put values where names, messages and titles go) runs in the real engines
   * (the page's Python interpreter under CPython with pandas and matplotlib, its SQL in native
   * DuckDB: lib/testing/real-engines.ts); every request the provider receives under `schema` holds
   * none of the values, and still holds the column names of the header rows.
   */
  describe('under schema no planted value reaches the provider, whatever the code does with it', () => {
    const PRE = 'import pandas as pd\ndf = pd.read_csv(f"{DATA}/sales.csv")\n';
    const SHAPES: Array<{ toolName: 'python' | 'sql'; code: string }> = [
      // Values become column names.
      { toolName: 'python', code: `${PRE}df.pivot_table(index="city", columns="customer", values="amount", aggfunc="sum")` },
      { toolName: 'python', code: `${PRE}pd.crosstab(df.city, df.customer)` },
      { toolName: 'python', code: `${PRE}df.groupby(["city", "customer"]).amount.sum().unstack()` },
      { toolName: 'python', code: `${PRE}df.set_index("customer").T` },
      { toolName: 'python', code: `${PRE}pd.get_dummies(df.city)` },
      { toolName: 'python', code: `${PRE}df.customer.value_counts().to_frame().T` },
      { toolName: 'python', code: `${PRE}df.rename(columns={"amount": df.note[0]})` },
      { toolName: 'python', code: 'import pandas as pd\npd.read_csv(f"{DATA}/raw.csv")' },
      { toolName: 'python', code: `${PRE}df.pivot(index="day", columns="note", values="amount").reset_index()` },
      // Values in exceptions' own words.
      { toolName: 'python', code: `${PRE}raise ValueError(f"unexpected customer {df.customer[0]}")` },
      { toolName: 'python', code: `${PRE}assert df.amount.sum() < 0, df.note[1]` },
      { toolName: 'python', code: `${PRE}{}[df.customer[1]]` },
      { toolName: 'python', code: `${PRE}int(df.customer[2])` },
      { toolName: 'python', code: `${PRE}df.city.astype(float)` },
      { toolName: 'python', code: `${PRE}pd.to_datetime(df.note, format="%Y-%m-%d")` },
      { toolName: 'python', code: `${PRE}raise RuntimeError(repr(df.iloc[0].to_dict()))` },
      { toolName: 'python', code: `${PRE}import sys\nsys.exit(df.customer[3])` },
      { toolName: 'python', code: `${PRE}import datetime\ndatetime.datetime.strptime(df.city[1], "%Y")` },
      // Values as the names of the classes raised.
      { toolName: 'python', code: `${PRE}import re\nraise type(re.sub(r"[^A-Za-z0-9_]", "", str(df.customer[0])) + "Error", (Exception,), {})("x")` },
      { toolName: 'python', code: `${PRE}raise type(str(df.city[1]) + "Warning", (Exception,), {})()` },
      { toolName: 'python', code: `${PRE}df.set_index("customer").loc[df.city[0]]` },
      // Warnings, logging, printing.
      { toolName: 'python', code: `${PRE}import warnings\nwarnings.warn(f"odd city {df.city[2]}")\nprint(df)` },
      { toolName: 'python', code: `${PRE}import logging\nlogging.warning("customer %s", df.customer[1])` },
      // Files written, named by values.
      { toolName: 'python', code: `${PRE}open(f"{OUTPUT}/{df.customer[0]}.txt", "w").write("x")` },
      { toolName: 'python', code: `${PRE}for c in df.city:\n    open(f"{OUTPUT}/{c}.csv", "w").write("x")` },
      // Figures and charts: titles, axes, tick labels.
      { toolName: 'python', code: `${PRE}import matplotlib.pyplot as plt\nplt.bar(df.customer, df.amount)\nplt.title(df.note[0])\nplt.xlabel(df.city[0])` },
      { toolName: 'python', code: `${PRE}import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot(range(len(df)), df.amount)\nax.set_xticks(range(len(df)))\nax.set_xticklabels(df.note)\nfig.suptitle(df.customer[2])` },
      {
        toolName: 'python',
        code: `${PRE}wide = df.pivot_table(index="day", columns="customer", values="amount").reset_index()\nclass Chart:\n    def _repr_mimebundle_(self, include=None, exclude=None):\n        return {"application/vnd.vegalite.v5+json": {"title": df.note[0], "data": {"values": wide.to_dict("records")}, "mark": "line", "encoding": {"x": {"field": "day", "type": "temporal", "title": df.city[0]}, "y": {"field": str(wide.columns[1]), "type": "quantitative"}, "color": {"value": df.city[1]}}}}\ndisplay(Chart())`,
      },
      // SQL: DuckDB's pivots, conversions, CSV errors and messages.
      { toolName: 'sql', code: 'PIVOT sales ON customer USING sum(amount)' },
      { toolName: 'sql', code: 'PIVOT sales ON city USING count(*) GROUP BY day' },
      { toolName: 'sql', code: 'SELECT CAST(customer AS INTEGER) FROM sales' },
      { toolName: 'sql', code: 'SELECT note::DATE FROM sales' },
      { toolName: 'sql', code: 'SELECT error(customer) FROM sales' },
      { toolName: 'sql', code: "SELECT strptime(city, '%Y') FROM sales" },
      { toolName: 'sql', code: "SELECT json_extract(note, '$.a') FROM sales" },
      { toolName: 'sql', code: "SELECT who, sum(amount) FROM read_csv(DATA_BIG) GROUP BY who" },
      { toolName: 'sql', code: 'SELECT * FROM raw' },
      { toolName: 'sql', code: 'SELECT customer, city, amount, note, day FROM sales' },
      { toolName: 'sql', code: "SELECT customer AS \"total\" FROM sales WHERE amount > 0 UNION ALL SELECT CAST(note AS BIGINT) FROM sales" },
      // Python asking DuckDB.
      { toolName: 'python', code: 'sql("SELECT CAST(city AS DOUBLE) FROM sales")' },
      { toolName: 'python', code: 'sql("PIVOT sales ON note USING max(amount)")' },
      { toolName: 'python', code: 'for name in sql("SELECT DISTINCT city FROM sales").city:\n    open(f"{OUTPUT}/{name}.md", "w").write("x")' },
    ];

    it(`${SHAPES.length} code shapes over generated values, in the real engines, for 3 seeds`, { timeout: 240_000 }, async () => {
      expect(SHAPES.length).toBeGreaterThanOrEqual(30);
      const { sniffTable, previewToText } = await import('@/lib/files/sniff.client');
      const { startRealEngines } = await import('@/lib/testing/real-engines');
      // One interpreter over one /data for every seed, as a page keeps one: each seed writes new files.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-allow-list-'));
      const dataDir = path.join(dir, 'data');
      const outputDir = path.join(dir, 'output');
      fs.mkdirSync(dataDir);
      fs.mkdirSync(outputDir);
      const engines = await startRealEngines(dataDir, outputDir);
      try {
        for (const seed of [1, 2, 3]) {
          const { words, value, digits } = plantedValues(seed);
          for (const written of fs.readdirSync(outputDir)) fs.rmSync(path.join(outputDir, written));
          const sales = quotedCsv([['customer', 'city', 'amount', 'note', 'day'], ...Array.from({ length: 6 }, (_, i) => [value(), value(), Number(digits()), value(), `2024-01-0${i + 1}`])]);
          const bad = value();
          const big = `id,amount,who\n${Array.from({ length: 30_000 }, (_, i) => `${i},${i === 25_000 ? quotedCsv([[bad]]).trim() : i % 97},w${i % 7}`).join('\n')}\n`;
          const raw = quotedCsv(Array.from({ length: 4 }, () => [value(), Number(digits()), value()]));
          const files = { 'sales.csv': sales, 'big.csv': big, 'raw.csv': raw };
          for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dataDir, name), text);
          // Attachments as the page makes them: the browser's sniffer over the file's first bytes.
          const attachments = Object.entries(files).map(([name, text], i) => {
            const table = sniffTable(text.slice(0, 256 * 1024), { fileName: name, complete: text.length <= 256 * 1024 });
            return {
              name,
              size: Buffer.byteLength(text),
              mediaType: 'text/csv',
              sha256: String(i).repeat(64),
              location: name === 'raw.csv' ? 'device' : 'account',
              preview: previewToText(`data/${name}`, Buffer.byteLength(text), table),
              ...(table ? { columns: table.columns, header: table.header } : {}),
            };
          });
          const identity = await guest();
          const conversationId = crypto.randomUUID();
          model.prompts.length = 0;
          const calls = SHAPES.map((shape) => ({ toolName: shape.toolName, code: shape.code.replace('DATA_BIG', `'${path.join(dataDir, 'big.csv')}'`) }));
          model.next.push(calls, 'text');
          const user = { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'look at the sales' }], metadata: { files: attachments } };
          await chat(identity, { id: conversationId, message: user, settings: { modelSees: 'schema' } });
          const called = await storedAnswer(conversationId);
          const parts: Array<Record<string, unknown>> = [];
          for (const part of called.parts as Array<Record<string, unknown>>) {
            const input = part.input as { code?: string } | undefined;
            if ((part.type === 'tool-python' || part.type === 'tool-sql') && input?.code) {
              const run = await engines.run(part.type === 'tool-sql' ? 'sql' : 'python', input.code);
              parts.push({ ...part, state: 'output-available', output: { status: run.status, durationMs: 5, outputs: run.outputs } });
            } else parts.push(part);
          }
          await chat(identity, { id: conversationId, message: { id: called.id, role: 'assistant', parts, metadata: called.metadata } });
          expect(model.prompts).toHaveLength(2);
          const received = JSON.stringify(model.prompts);
          // The runs did put values where the model's view reads: in names, messages and files written.
          const outputs = JSON.stringify(parts.map((part) => part.output ?? null));
          expect(words.filter((planted) => outputs.includes(planted)).length).toBeGreaterThan(words.length / 3);
          const leaked = words.filter((planted) => received.includes(planted));
          expect(leaked, `seed ${seed}: values that reached the provider`).toEqual([]);
          // What the model knows still reaches it: the header rows' column names, the headerless file's own names.
          for (const name of ['customer (', 'city (', 'amount (', 'note (', 'day (', 'columns id (', 'column0 (']) expect(received).toContain(name);
          expect(received).toContain('a table of 6 rows × 5 columns; columns: customer (string), city (string), amount (integer), note (string), day (');
        }
      } finally {
        await engines.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
