// url.test.mjs: URL mode. The consent shows the full address and its site, and Accept reaches
// the server; a javascript: address is shown as text only, with no link and no Accept.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { HERE, newPage, received, runTool, withHostAndBrowser } from './host.mjs';

const HOSTILE = JSON.parse(fs.readFileSync(path.join(HERE, 'hostile.json'), 'utf8'));
const LOGIN_URL = 'https://auth.example.com/authorize?client=web-example&scope=profile';

let host;
let browser;
withHostAndBrowser((started, launched) => {
  host = started;
  browser = launched;
});

for (const [button, action] of [
  ['Accept', 'accept'],
  ['Decline', 'decline'],
]) {
  test(`the consent shows the address and its site; ${button}`, { timeout: 60_000 }, async () => {
    const { context, page } = await newPage(browser);
    try {
      await runTool(page, host.url, 'login');
      const main = page.getByRole('main');
      await page.getByText('Example server asks:').waitFor();
      const text = await main.innerText();
      assert.ok(text.includes('Sign in to continue'), 'the message');
      assert.ok(text.includes(LOGIN_URL), 'the full address');
      assert.ok(text.includes(new URL(LOGIN_URL).host), 'its site');
      const link = page.getByRole('link', { name: /^Open auth\.example\.com/ });
      assert.equal(await link.getAttribute('href'), LOGIN_URL, 'a link to follow, exactly the address');
      assert.equal(await link.getAttribute('target'), '_blank');
      assert.match(await link.getAttribute('rel'), /noopener/);
      assert.match(await link.getAttribute('rel'), /noreferrer/);
      await page.getByRole('button', { name: button, exact: true }).click();
      assert.deepEqual(await received(page), { action });
    } finally {
      await context.close();
    }
  });
}

test('a javascript: address offers no link and no Accept', { timeout: 60_000 }, async () => {
  const { context, page } = await newPage(browser);
  try {
    await runTool(page, host.url, 'hostile_url');
    await page.getByText('Example server asks:').waitFor();
    const main = page.getByRole('main');
    assert.ok((await main.innerText()).includes(HOSTILE.url), 'the address is shown as text');
    assert.equal(await page.getByRole('button', { name: 'Accept' }).count(), 0, 'no Accept');
    assert.equal(await page.getByRole('button', { name: 'Decline', exact: true }).count(), 1);
    assert.equal(await page.getByRole('button', { name: 'Cancel', exact: true }).count(), 1);
    const links = await main.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(links, ['/'], 'no link but the host\'s own');
    assert.match(await main.innerText(), /Refused/, 'the review says why');
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    assert.deepEqual(await received(page), { action: 'decline' });
    assert.equal(await page.evaluate((flag) => globalThis[flag], HOSTILE.flag), undefined);
  } finally {
    await context.close();
  }
});
