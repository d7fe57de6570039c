// refuse.test.mjs: Decline and Cancel, in both protocol versions, with the required fields
// left empty and a value the browser would refuse typed in: the browser lets them through
// and the server receives the bare action.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ERA_2025, ERA_2026, newPage, received, runTool, withHostAndBrowser } from './host.mjs';

let host;
let browser;
withHostAndBrowser((started, launched) => {
  host = started;
  browser = launched;
});

const cases = [
  ['Decline', 'decline', ERA_2025, 'register'],
  ['Cancel', 'cancel', ERA_2025, 'register'],
  ['Decline', 'decline', ERA_2026, 'register_rounds'],
  ['Cancel', 'cancel', ERA_2026, 'register_rounds'],
];

for (const [button, action, era, tool] of cases) {
  test(`${button} with required fields empty (${era})`, { timeout: 60_000 }, async () => {
    const { context, page } = await newPage(browser);
    try {
      await runTool(page, host.url, tool, era);
      const name = page.getByLabel('Full name');
      assert.equal(await name.inputValue(), '');
      assert.equal(await name.evaluate((input) => input.required), true, 'the name is required');
      assert.equal(await name.evaluate((input) => input.validity.valueMissing), true);
      const age = page.getByLabel('Age');
      await age.fill('5');
      assert.equal(await age.evaluate((input) => input.validity.rangeUnderflow), true);
      await page.getByRole('button', { name: button, exact: true }).click();
      assert.deepEqual(await received(page), { action });
    } finally {
      await context.close();
    }
  });
}

test('Accept with required fields empty is stopped by the browser', { timeout: 60_000 }, async () => {
  const { context, page } = await newPage(browser);
  try {
    await runTool(page, host.url, 'register');
    const posts = [];
    page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()));
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    assert.equal(await page.getByLabel('Full name').evaluate((input) => input.validity.valueMissing), true);
    await page.waitForTimeout(300);
    assert.deepEqual(posts, [], 'nothing was posted');
    // The question is still open: Cancel ends it.
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    assert.deepEqual(await received(page), { action: 'cancel' });
  } finally {
    await context.close();
  }
});
