// axe.test.mjs: axe-core finds no accessibility violation on the host's pages as served (their
// CSP included): the tool list, the form with every kind of field, that form with an error,
// the URL consent (followable and refused), and a result. Each page's counts are reported.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { newPage, received, runAxe, runTool, withHostAndBrowser } from './host.mjs';

let host;
let browser;
withHostAndBrowser((started, launched) => {
  host = started;
  browser = launched;
});

/** Runs axe on the page, reports its counts and fails on any violation, naming each. */
async function noViolation(t, page, what) {
  const results = await runAxe(page);
  t.diagnostic(
    `axe ${what}: ${results.passes.length} passes, ${results.violations.length} violations, ` +
      `${results.incomplete.length} to review`,
  );
  for (const item of results.incomplete) {
    t.diagnostic(`  to review: ${item.id} (${item.nodes.length}): ${item.help}`);
  }
  const found = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n` + v.nodes.map((n) => `    ${n.html}\n      ${n.failureSummary}`).join('\n'),
  );
  assert.deepEqual(found, [], `axe found violations on ${what}`);
  assert.ok(results.passes.length > 0, 'axe ran its rules');
}

async function fillValid(page) {
  await page.getByLabel('Full name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Date of birth').fill('1815-12-10');
  await page.getByLabel('First meeting').fill('2026-06-01T14:30');
  await page.getByLabel('Height in metres').fill('1.72');
  await page.getByLabel('Age').fill('36');
  await page.getByRole('group', { name: 'I accept the terms' }).getByRole('radio', { name: 'Yes' }).check();
  await page.getByRole('group', { name: 'Plan' }).getByRole('radio', { name: 'Pro' }).check();
  await page.getByLabel('Country').selectOption({ label: 'Portugal' });
}

test('axe: the tool list', { timeout: 60_000 }, async (t) => {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(`${host.url}/`);
    await noViolation(t, page, 'the tool list');
  } finally {
    await context.close();
  }
});

test('axe: the form with every kind of field, then with an error, then a result', { timeout: 90_000 }, async (t) => {
  const { context, page } = await newPage(browser);
  try {
    await runTool(page, host.url, 'register');
    await page.getByRole('button', { name: 'Accept' }).waitFor();
    await noViolation(t, page, 'the form with every kind of field');

    await fillValid(page);
    const topics = page.getByRole('group', { name: /^Topics/ });
    for (const topic of ['Rust', 'Python', 'MCP']) await topics.getByRole('checkbox', { name: topic }).check();
    await page.getByLabel('Notes').fill('x'.repeat(10));
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Accept' }).click(),
    ]);
    assert.equal(response.status(), 422);
    await page.getByRole('alert').waitFor();
    await noViolation(t, page, 'the form with an error');

    await page.getByRole('button', { name: 'Decline' }).click();
    assert.deepEqual(await received(page), { action: 'decline' });
    await noViolation(t, page, 'a result');
  } finally {
    await context.close();
  }
});

for (const [tool, what] of [
  ['login', 'the URL consent'],
  ['hostile_url', 'the consent to a refused URL'],
]) {
  test(`axe: ${what}`, { timeout: 60_000 }, async (t) => {
    const { context, page } = await newPage(browser);
    try {
      await runTool(page, host.url, tool);
      await page.getByRole('button', { name: 'Decline' }).waitFor();
      await noViolation(t, page, what);
      await page.getByRole('button', { name: 'Cancel' }).click();
      assert.deepEqual(await received(page), { action: 'cancel' });
    } finally {
      await context.close();
    }
  });
}
