// scaled.test.mjs: the host scaled out, in a real Chromium: two workers behind one address.
// Two worker processes of app.py behind a round-robin proxy, rounds kept in Redis (and SQLite)
// as sealed snapshots, the MCP server a live official-SDK server over streamable HTTP at
// 2026-07-28: a question shown by one worker is answered on the other, a killed worker loses
// nothing, an edited or expired round is refused, and 50 people at once are each answered
// exactly once.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { ERA_2026, PYTHON, launchBrowser, newPage, received, runTool } from './host.mjs';
import { removeScratch, scratch, startCluster, startMcpServer, startRedis, transcript } from './cluster.mjs';

/** How long a question of the short-lived cluster waits for its answer. */
const SHORT_TTL_MS = 3000;

let browser;
let redis;
let server;
let cluster; // Redis
let shortLived; // Redis, with --ttl-ms
let sqlite; // SQLite

before(async () => {
  [redis, server] = await Promise.all([startRedis(), startMcpServer()]);
  const serverUrl = server.url;
  [cluster, shortLived, sqlite, browser] = await Promise.all([
    startCluster({ serverUrl, store: redis.url, label: 'redis' }),
    startCluster({ serverUrl, store: redis.url, ttlMs: SHORT_TTL_MS, label: 'short' }),
    startCluster({ serverUrl, store: `sqlite:${path.join(scratch, 'rounds.db')}`, label: 'sqlite' }),
    launchBrowser(),
  ]);
});

after(async () => {
  await browser?.close();
  await Promise.all([cluster?.stop(), shortLived?.stop(), sqlite?.stop()]);
  await Promise.all([server?.stop(), redis?.stop()]);
  removeScratch();
  // TOOLNEXUS_TRANSCRIPT=FILE writes what every process said, in order, with the time since the start.
  if (process.env.TOOLNEXUS_TRANSCRIPT && transcript.length) {
    const start = transcript[0].at;
    const text = transcript.map((e) => `${String(e.at - start).padStart(6)} ms [${e.who}] ${e.text}`).join('\n');
    fs.writeFileSync(process.env.TOOLNEXUS_TRANSCRIPT, `${text}\n`);
  }
});

/** What the person fills in, and what the server must then receive. */
const REGISTRATION = {
  action: 'accept',
  content: {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    website: 'https://ada.example.org/',
    birthday: '1815-12-10',
    meeting: '2026-06-01T14:30:00Z',
    height: 1.72,
    age: 36,
    terms: true,
    newsletter: false,
    plan: 'pro',
    country: 'pt',
    topics: ['rust', 'python'],
    city: 'Lisbon',
    notes: 'Met at the Analytical Engine talk.',
  },
};

const ASK = /^\/ask\//;

/** Fills the form with every kind of field, as REGISTRATION says. */
async function fillRegistration(page) {
  const group = (name) => page.getByRole('group', { name });
  const c = REGISTRATION.content;
  await page.getByLabel('Full name').fill(c.name);
  await page.getByLabel('Email').fill(c.email);
  await page.getByLabel('Website').fill(c.website);
  await page.getByLabel('Date of birth').fill(c.birthday);
  await page.getByLabel('First meeting').fill('2026-06-01T14:30');
  await page.getByLabel('Height in metres').fill('1.72');
  await page.getByLabel('Age').fill('36');
  await group('I accept the terms').getByRole('radio', { name: 'Yes', exact: true }).check();
  await group('Send me the newsletter').getByRole('radio', { name: 'No', exact: true }).check();
  await group('Plan').getByRole('radio', { name: 'Pro', exact: true }).check();
  await page.getByLabel('Country').selectOption({ label: 'Portugal' });
  for (const topic of ['Rust', 'Python']) {
    await group(/^Topics/).getByRole('checkbox', { name: topic, exact: true }).check();
  }
  await page.getByLabel('Notes').fill(c.notes);
}

/** The worker that served the page shown, by its footer. */
async function servedBy(page) {
  const footer = await page.locator('footer .worker').textContent();
  const match = /^Served by worker (\S+)$/.exec(footer.trim());
  assert.ok(match, `the footer names the worker: ${footer}`);
  return match[1];
}

/** Clicks `button` and resolves to the response of the POST it sends. */
async function post(page, button = 'Accept') {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
  await page.waitForLoadState();
  return response;
}

/** The requests of pages (not style sheets) since `mark`, as `METHOD /path/ WORKER STATUS`. */
function route(proxy, mark) {
  return proxy.pages(mark).map((e) => `${e.method} ${e.path.replace(/^\/(ask|calls)\/[^/]+$/, '/$1/')} ${e.worker} ${e.status}`);
}

/** The bytes the store holds for round `id`, as text. */
function storedRedis(id) {
  return redis.cli('GET', `tn:round:${id}`);
}

function storedSqlite(id) {
  const script = [
    'import sqlite3, sys',
    'row = sqlite3.connect(sys.argv[1]).execute("SELECT value, answered FROM rounds WHERE id = ?", (sys.argv[2],)).fetchone()',
    'print(row[1], row[0].hex())',
  ].join('\n');
  const out = spawnSync(PYTHON, ['-c', script, sqlite.store.slice('sqlite:'.length), id], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return out.stdout;
}

/**
 * Shown by A; a post A refuses (the form back with its error, the stored round untouched);
 * then the fixed answer posted to B, which restores the round from the store and retries.
 */
async function shownByAAnsweredByB(c, stored) {
  const { proxy } = c;
  proxy.reset();
  const before = server.received().length;
  const mark = proxy.log.length;
  proxy.force('A', { method: 'GET', path: ASK });
  proxy.force('A', { method: 'POST', path: ASK });
  proxy.force('B', { method: 'POST', path: ASK });
  const { context, page } = await newPage(browser);
  try {
    await runTool(page, proxy.url, 'register_rounds', ERA_2026);
    const id = new URL(page.url()).pathname.split('/').pop();
    assert.match(new URL(page.url()).pathname, ASK, 'the host shows the question');
    assert.equal(await servedBy(page), 'A');
    await page.getByText('Example server asks:').waitFor();
    const kept = stored(id);
    await fillRegistration(page);
    // Three topics where two at most are allowed: only the host's check refuses it.
    const mcp = page.getByRole('group', { name: /^Topics/ }).getByRole('checkbox', { name: 'MCP', exact: true });
    await mcp.check();
    const refused = await post(page);
    assert.equal(refused.status(), 422);
    assert.equal(refused.headers()['x-worker'], 'A');
    await page.getByRole('alert').waitFor();
    assert.equal(stored(id), kept, 'the stored round is as it was');
    assert.deepEqual(server.received().slice(before), [], 'nothing reached the server');
    await mcp.uncheck();
    const answered = await post(page);
    assert.equal(answered.status(), 303);
    assert.equal(answered.headers()['x-worker'], 'B', 'the answer was taken by B');
    assert.deepEqual(await received(page), REGISTRATION, 'the result page shows what the server received');
    assert.deepEqual(
      server.received().slice(before),
      [{ tool: 'register_rounds', round: 1, inputResponses: { profile: REGISTRATION } }],
      'the server received the answers once',
    );
    const steps = route(proxy, mark);
    const asks = steps.filter((step) => step.includes('/ask/'));
    assert.deepEqual(asks, ['GET /ask/ A 200', 'POST /ask/ A 422', 'POST /ask/ B 303'], steps.join('\n'));
    return steps;
  } finally {
    await context.close();
  }
}

test('a question shown by worker A, refused there, is answered on worker B (Redis)', { timeout: 60_000 }, async (t) => {
  const steps = await shownByAAnsweredByB(cluster, storedRedis);
  t.diagnostic(steps.join(' | '));
});

test('two rounds in a row alternate workers (Redis)', { timeout: 60_000 }, async (t) => {
  const { proxy } = cluster;
  proxy.reset();
  const before = server.received().length;
  const mark = proxy.log.length;
  // Round 1 shown by A and answered on B; round 2 shown by B and answered on A.
  proxy.force('A', { method: 'GET', path: ASK });
  proxy.force('B', { method: 'POST', path: ASK });
  proxy.force('B', { method: 'GET', path: ASK });
  proxy.force('A', { method: 'POST', path: ASK });
  const { context, page } = await newPage(browser);
  try {
    await runTool(page, proxy.url, 'register_confirm', ERA_2026);
    assert.equal(await servedBy(page), 'A');
    const first = new URL(page.url()).pathname;
    await fillRegistration(page);
    const one = await post(page);
    assert.equal(one.headers()['x-worker'], 'B');
    // B retried the call; the server asked again; B stored the new round.
    await page.getByText('Send the registration of Ada Lovelace?').waitFor();
    const second = new URL(page.url()).pathname;
    assert.match(second, ASK);
    assert.notEqual(second, first, 'each round is a record of its own');
    assert.equal(await servedBy(page), 'B');
    await page.getByRole('group', { name: 'Send this registration' }).getByRole('radio', { name: 'Yes', exact: true }).check();
    await page.getByLabel('Remarks').fill('See you in Lisbon.');
    const two = await post(page);
    assert.equal(two.headers()['x-worker'], 'A');
    const confirm = { action: 'accept', content: { confirm: true, remarks: 'See you in Lisbon.' } };
    assert.deepEqual(await received(page), { profile: REGISTRATION, confirm });
    assert.deepEqual(server.received().slice(before), [
      { tool: 'register_confirm', round: 1, inputResponses: { profile: REGISTRATION } },
      { tool: 'register_confirm', round: 2, inputResponses: { confirm } },
    ]);
    // The last reply came after a progress notification, on an event stream; A read it there.
    assert.ok(
      cluster.byName.A.lines.some((line) => /tools\/call \S+: reply read from an event stream, after 1 notification/.test(line)),
      cluster.byName.A.lines.join('\n'),
    );
    const steps = route(proxy, mark);
    const asks = steps.filter((step) => step.includes('/ask/'));
    assert.deepEqual(asks, ['GET /ask/ A 200', 'POST /ask/ B 303', 'GET /ask/ B 200', 'POST /ask/ A 303'], steps.join('\n'));
    t.diagnostic(steps.join(' | '));
  } finally {
    await context.close();
  }
});

/** Changes one byte in the middle of the sealed snapshot of round `id`, in the store itself. */
function editRedis(id) {
  const key = `tn:round:${id}`;
  const value = redis.cli('GET', key);
  const offset = value.indexOf('\n') + 1 + Math.floor((value.length - value.indexOf('\n')) / 2);
  const byte = value[offset];
  redis.cli('SETRANGE', key, String(offset), byte === 'A' ? 'B' : 'A');
  assert.notEqual(redis.cli('GET', key), value, 'the stored value was changed');
  return { key, offset, byte };
}

function editSqlite(id) {
  const script = [
    'import sqlite3, sys',
    'db = sqlite3.connect(sys.argv[1])',
    'value = bytearray(db.execute("SELECT value FROM rounds WHERE id = ?", (sys.argv[2],)).fetchone()[0])',
    'start = value.index(b"\\n") + 1',
    'offset = start + (len(value) - start) // 2',
    'value[offset] = ord("B") if value[offset] == ord("A") else ord("A")',
    'assert db.execute("UPDATE rounds SET value = ? WHERE id = ?", (bytes(value), sys.argv[2])).rowcount == 1',
    'db.commit()',
  ].join('\n');
  const out = spawnSync(PYTHON, ['-c', script, sqlite.store.slice('sqlite:'.length), id], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
}

async function editedSnapshotRefused(c, edit) {
  const { proxy } = c;
  proxy.reset();
  const before = server.received().length;
  proxy.force('A', { method: 'GET', path: ASK });
  proxy.force('B', { method: 'POST', path: ASK });
  const { context, page } = await newPage(browser);
  try {
    await runTool(page, proxy.url, 'rsvp', ERA_2026);
    const ask = page.url();
    const id = new URL(ask).pathname.split('/').pop();
    await page.getByLabel('Your name').fill('Mallory');
    edit(id);
    const refused = await post(page);
    assert.equal(refused.status(), 400);
    assert.equal(refused.headers()['x-worker'], 'B');
    await page.getByRole('heading', { level: 1, name: 'This saved question cannot be trusted' }).waitFor();
    await page.getByText('The saved question was changed after this host saved it, so it cannot be trusted.').waitFor();
    const again = await page.goto(ask);
    assert.equal(again.status(), 400, 'showing it is refused too');
    assert.deepEqual(server.received().slice(before), [], 'nothing reached the server');
    const refusals = c.workers.flatMap((w) => w.lines).filter((line) => line.includes(`round ${id}: refused: invalid_seal`));
    assert.ok(refusals.length >= 2, `the workers logged the refused seal:\n${refusals.join('\n')}`);
  } finally {
    await context.close();
  }
}

test('a snapshot edited in Redis is refused with a clear page', { timeout: 60_000 }, () =>
  editedSnapshotRefused(cluster, editRedis),
);

test('a snapshot moved to another record in Redis is refused', { timeout: 60_000 }, async () => {
  const { proxy } = cluster;
  proxy.reset();
  const { context, page } = await newPage(browser);
  try {
    // Two questions of the same person; the first one's record copied over the second's.
    await runTool(page, proxy.url, 'rsvp', ERA_2026);
    const first = new URL(page.url()).pathname.split('/').pop();
    await runTool(page, proxy.url, 'rsvp', ERA_2026);
    const second = new URL(page.url()).pathname.split('/').pop();
    redis.cli('SET', `tn:round:${second}`, redis.cli('GET', `tn:round:${first}`), 'KEEPTTL');
    assert.equal((await page.goto(`${proxy.url}/ask/${second}`)).status(), 400);
    await page.getByRole('heading', { level: 1, name: 'This saved question cannot be trusted' }).waitFor();
    assert.equal((await page.goto(`${proxy.url}/ask/${first}`)).status(), 200, 'the original still opens');
  } finally {
    await context.close();
  }
});

test('a round answered after it expired says so (Redis, --ttl-ms)', { timeout: 60_000 }, async () => {
  const { proxy } = shortLived;
  proxy.reset();
  const before = server.received().length;
  proxy.force('A', { method: 'GET', path: ASK });
  proxy.force('B', { method: 'POST', path: ASK });
  const { context, page } = await newPage(browser);
  try {
    await runTool(page, proxy.url, 'rsvp', ERA_2026);
    // The round was stored before the page that shows it was asked for.
    const shown = Date.now();
    const ask = page.url();
    assert.equal(await servedBy(page), 'A');
    await page.getByLabel('Your name').fill('Late Larry');
    await page.waitForTimeout(Math.max(0, shown + SHORT_TTL_MS + 200 - Date.now()));
    const late = await post(page);
    assert.equal(late.status(), 410);
    assert.equal(late.headers()['x-worker'], 'B');
    await page.getByRole('heading', { level: 1, name: 'This question has expired' }).waitFor();
    assert.equal((await page.goto(ask)).status(), 410, 'showing it says so too');
    assert.deepEqual(server.received().slice(before), [], 'nothing reached the server');
  } finally {
    await context.close();
  }
});

test('50 people answering at once across both workers: every answer sent, none twice (Redis)', { timeout: 90_000 }, async (t) => {
  const { proxy } = cluster;
  proxy.reset();
  const before = server.received().length;
  const mark = proxy.log.length;
  const people = Array.from({ length: 50 }, (_, i) => `Person ${String(i + 1).padStart(2, '0')}`);
  const contexts = await Promise.all(people.map(() => browser.newContext()));
  try {
    // Each person opens the tool list, runs rsvp and loads the question, all at once.
    const forms = await Promise.all(
      contexts.map(async (context, i) => {
        const home = await context.request.get(`${proxy.url}/`);
        const csrf = /name="csrf" value="([^"]+)"/.exec(await home.text())[1];
        const started = await context.request.post(`${proxy.url}/calls`, {
          form: { csrf, tool: 'rsvp', era: ERA_2026 },
          maxRedirects: 0,
        });
        assert.equal(started.status(), 303);
        const ask = started.headers().location;
        assert.match(ask, ASK);
        const shown = await context.request.get(`${proxy.url}${ask}`);
        assert.equal(shown.status(), 200);
        const requestId = /name="tn-request" value="([^"]+)"/.exec(await shown.text())[1];
        return { context, csrf, ask, requestId, name: people[i] };
      }),
    );
    // Everyone sends the answer twice at the same moment: once to A, once to B (half of them
    // to A first, half to B first).
    for (const [i, form] of forms.entries()) {
      const only = new RegExp(`^${form.ask}$`);
      const [first, second] = i % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
      proxy.force(first, { method: 'POST', path: only });
      proxy.force(second, { method: 'POST', path: only });
    }
    const linesBefore = cluster.workers.map((worker) => worker.lines.length);
    const started = Date.now();
    const posts = await Promise.all(
      forms.flatMap((form) =>
        [0, 1].map(() =>
          form.context.request.post(`${proxy.url}${form.ask}`, {
            form: { csrf: form.csrf, 'tn-request': form.requestId, 'tn-0': form.name, 'tn-1': '1', 'tn-action': 'accept' },
            maxRedirects: 0,
          }),
        ),
      ),
    );
    const took = Date.now() - started;
    const winners = [];
    for (const [i, form] of forms.entries()) {
      const pair = posts.slice(2 * i, 2 * i + 2);
      const statuses = pair.map((r) => r.status()).sort();
      assert.deepEqual(statuses, [303, 409], `${form.name}: one post answers, the other is told it was answered`);
      assert.deepEqual(pair.map((r) => r.headers()['x-worker']).sort(), ['A', 'B']);
      const loser = pair.find((r) => r.status() === 409);
      assert.match(await loser.text(), /This question was already answered/);
      winners.push(pair.find((r) => r.status() === 303));
    }
    const won = { A: 0, B: 0 };
    for (const winner of winners) won[winner.headers()['x-worker']] += 1;

    // The server received exactly 50 answers, one per person.
    const got = server.received().slice(before);
    assert.equal(got.length, 50, 'exactly 50 answers reached the server');
    assert.ok(got.every((line) => line.tool === 'rsvp' && line.inputResponses.rsvp.action === 'accept'));
    const names = got.map((line) => line.inputResponses.rsvp.content.name).sort();
    assert.deepEqual(names, [...people].sort(), 'each person once, none lost, none twice');

    // And each person's call shows their own answer.
    await Promise.all(
      forms.map(async (form, i) => {
        const result = await form.context.request.get(`${proxy.url}${winners[i].headers().location}`);
        assert.equal(result.status(), 200);
        assert.match(await result.text(), new RegExp(`&quot;name&quot;: &quot;${form.name}&quot;`));
      }),
    );
    const served = { A: 0, B: 0 };
    for (const entry of proxy.pages(mark)) served[entry.worker] += 1;
    assert.ok(served.A > 0 && served.B > 0, 'both workers served');
    // A loser that came after the winner found the round answered; one that came at the same
    // moment lost the claim itself.
    const raced = cluster.workers
      .flatMap((worker, i) => worker.lines.slice(linesBefore[i]))
      .filter((line) => line.endsWith('already answered: another post claimed it first')).length;
    t.diagnostic(
      `100 posts in ${took} ms; answers taken by A: ${won.A}, by B: ${won.B}; ${raced} of the 50 second posts ` +
        `lost the claim itself, the others found the round answered; pages served by A: ${served.A}, by B: ${served.B}`,
    );
  } finally {
    await Promise.all(contexts.map((context) => context.close()));
  }
});

test('worker A killed while the person fills the form: B takes the answer (Redis)', { timeout: 60_000 }, async (t) => {
  const { proxy, byName } = cluster;
  proxy.reset();
  const before = server.received().length;
  const mark = proxy.log.length;
  const from = transcript.length;
  proxy.force('A', { method: 'GET', path: ASK });
  const { context, page } = await newPage(browser);
  try {
    await runTool(page, proxy.url, 'register_rounds', ERA_2026);
    assert.equal(await servedBy(page), 'A');
    await page.getByLabel('Full name').fill('Ada Lovelace');
    const killed = await byName.A.kill('SIGKILL');
    assert.deepEqual(killed, { code: null, signal: 'SIGKILL' });
    await fillRegistration(page);
    proxy.force('A', { method: 'POST', path: ASK }); // the proxy tries A, is refused, and goes on to B
    const answered = await post(page);
    assert.equal(answered.status(), 303);
    assert.equal(answered.headers()['x-worker'], 'B');
    assert.deepEqual(await received(page), REGISTRATION);
    assert.equal(await servedBy(page), 'B');
    assert.deepEqual(server.received().slice(before), [
      { tool: 'register_rounds', round: 1, inputResponses: { profile: REGISTRATION } },
    ]);
    const postEntry = proxy.pages(mark).find((e) => e.method === 'POST' && ASK.test(e.path));
    assert.deepEqual([postEntry.skipped, postEntry.worker], [['A'], 'B'], 'A refused the connection; B answered');
    for (const entry of transcript.slice(from)) {
      if (entry.who.startsWith('redis ') || entry.who.startsWith('proxy redis')) t.diagnostic(`[${entry.who}] ${entry.text}`);
    }
  } finally {
    await context.close();
  }
});

test('a question shown by worker A, refused there, is answered on worker B (SQLite)', { timeout: 60_000 }, async (t) => {
  const steps = await shownByAAnsweredByB(sqlite, storedSqlite);
  t.diagnostic(steps.join(' | '));
});

test('two posts of one question at once, on A and on B: answered once (SQLite)', { timeout: 60_000 }, async () => {
  const { proxy } = sqlite;
  proxy.reset();
  const before = server.received().length;
  const { context, page } = await newPage(browser);
  try {
    await runTool(page, proxy.url, 'rsvp', ERA_2026);
    const ask = new URL(page.url()).pathname;
    const csrf = await page.locator('input[type=hidden][name=csrf]').inputValue();
    const requestId = await page.locator('input[type=hidden][name=tn-request]').inputValue();
    const form = { csrf, 'tn-request': requestId, 'tn-0': 'Grace Hopper', 'tn-1': '2', 'tn-action': 'accept' };
    proxy.force('A', { method: 'POST', path: ASK });
    proxy.force('B', { method: 'POST', path: ASK });
    const pair = await Promise.all([0, 1].map(() => context.request.post(`${proxy.url}${ask}`, { form, maxRedirects: 0 })));
    assert.deepEqual(pair.map((r) => r.status()).sort(), [303, 409]);
    assert.deepEqual(pair.map((r) => r.headers()['x-worker']).sort(), ['A', 'B']);
    assert.deepEqual(server.received().slice(before), [
      { tool: 'rsvp', round: 1, inputResponses: { rsvp: { action: 'accept', content: { name: 'Grace Hopper', guests: 2 } } } },
    ]);
  } finally {
    await context.close();
  }
});

test('a snapshot edited in SQLite is refused with a clear page', { timeout: 60_000 }, () =>
  editedSnapshotRefused(sqlite, editSqlite),
);
