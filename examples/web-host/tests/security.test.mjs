// security.test.mjs: what the host does for the form's safety. Every response carries the CSP
// and nosniff; a post without this session's CSRF token is refused and reaches no server; a
// question is seen and answered only from the browser that started the call.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ERA_2025, newPage, received, runTool, withHostAndBrowser } from './host.mjs';

const CSP = "default-src 'none'; style-src 'self'; form-action 'self'";

let host;
let browser;
withHostAndBrowser((started, launched) => {
  host = started;
  browser = launched;
});

test('every response carries the CSP and nosniff', { timeout: 60_000 }, async () => {
  const { context, page } = await newPage(browser);
  const responses = [];
  page.on('response', (response) => responses.push(response));
  try {
    await runTool(page, host.url, 'register');
    await page.getByLabel('Full name').fill('A'); // too short for the host, not for the browser's check
    await page.getByRole('button', { name: 'Decline' }).click();
    assert.deepEqual(await received(page), { action: 'decline' });
    await page.goto(`${host.url}/calls/no-such-call`);
    const refused = await page.request.post(`${host.url}/calls`, { form: { tool: 'register', era: ERA_2025 } });
    const missing = await page.request.get(`${host.url}/no-such-page`);
    const seen = [
      ...responses.map((r) => [r.url(), r.status(), r.headers()]),
      [refused.url(), refused.status(), refused.headers()],
      [missing.url(), missing.status(), missing.headers()],
    ];
    const statuses = new Set(seen.map(([, status]) => status));
    for (const status of [200, 303, 403, 404]) assert.ok(statuses.has(status), `a ${status} was seen`);
    assert.ok(seen.some(([url]) => url.endsWith('.css')), 'the style sheets were fetched');
    for (const [url, status, headers] of seen) {
      assert.equal(headers['content-security-policy'], CSP, `${status} ${url}`);
      assert.equal(headers['x-content-type-options'], 'nosniff', `${status} ${url}`);
    }
  } finally {
    await context.close();
  }
});

test('a post without the session\'s CSRF token is refused', { timeout: 60_000 }, async () => {
  const { context, page } = await newPage(browser);
  try {
    // Starting a call: no token, a made-up one, and a good one without the cookie it belongs to.
    await page.goto(`${host.url}/`);
    const token = await page.locator('input[type=hidden][name=csrf]').inputValue();
    for (const form of [
      { tool: 'register', era: ERA_2025 },
      { tool: 'register', era: ERA_2025, csrf: 'made-up' },
    ]) {
      const response = await page.request.post(`${host.url}/calls`, { form, maxRedirects: 0 });
      assert.equal(response.status(), 403, JSON.stringify(form));
    }
    const stranger = await browser.newContext();
    const without = await stranger.request.post(`${host.url}/calls`, {
      form: { tool: 'register', era: ERA_2025, csrf: token },
      maxRedirects: 0,
    });
    assert.equal(without.status(), 403, 'the token is good only with its session');

    // Answering: a forged post is refused and the question stays open.
    await runTool(page, host.url, 'register');
    const ask = page.url();
    const requestId = await page.locator('input[type=hidden][name=tn-request]').inputValue();
    const forged = await page.request.post(ask, {
      form: { csrf: 'made-up', 'tn-request': requestId, 'tn-action': 'decline' },
      maxRedirects: 0,
    });
    assert.equal(forged.status(), 403);
    // Another browser cannot see the question, nor answer it with its own token.
    const other = await stranger.newPage();
    const seen = await other.goto(ask);
    assert.equal(seen.status(), 404);
    await other.goto(`${host.url}/`);
    const theirs = await other.locator('input[type=hidden][name=csrf]').inputValue();
    const answered = await stranger.request.post(ask, {
      form: { csrf: theirs, 'tn-request': requestId, 'tn-action': 'decline' },
      maxRedirects: 0,
    });
    assert.equal(answered.status(), 404);
    await stranger.close();

    await page.reload();
    await page.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(await received(page), { action: 'cancel' }, 'the server got only the real answer');
  } finally {
    await context.close();
  }
});
