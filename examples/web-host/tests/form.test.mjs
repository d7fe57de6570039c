// form.test.mjs: the form with every kind of field, filled with the keyboard alone in a real
// Chromium, in both protocol versions: a value the browser refuses, a value only the host's
// check refuses (the re-render with the error beside its field), the fix, and exactly what the
// server received. Also the screenshot of the form for the documentation.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { ERA_2025, ERA_2026, HERE, arrowTo, description, isFocused, newPage, received, runTool, tabTo, tabUntil, withHostAndBrowser } from './host.mjs';

let host;
let browser;
withHostAndBrowser((started, launched) => {
  host = started;
  browser = launched;
});

/** The controls of the registration form, found by their role and accessible name. */
function controls(page) {
  const group = (name) => page.getByRole('group', { name });
  return {
    name: page.getByLabel('Full name'),
    email: page.getByLabel('Email'),
    website: page.getByLabel('Website'),
    birthday: page.getByLabel('Date of birth'),
    meeting: page.getByLabel('First meeting'),
    height: page.getByLabel('Height in metres'),
    age: page.getByLabel('Age'),
    terms: group('I accept the terms'),
    newsletter: group('Send me the newsletter'),
    plan: group('Plan'),
    country: page.getByLabel('Country'),
    topics: group(/^Topics/),
    city: page.getByLabel('City'),
    notes: page.getByLabel('Notes'),
    accept: page.getByRole('button', { name: 'Accept' }),
  };
}

const radio = (group, name) => group.getByRole('radio', { name, exact: true });
const checkbox = (group, name) => group.getByRole('checkbox', { name, exact: true });

/** What the person means to send, and what the server must then receive. */
const EXPECTED = {
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

/** The values each control shows once filled: after the re-render they must all be back. */
async function shown(page) {
  const c = controls(page);
  return {
    name: await c.name.inputValue(),
    email: await c.email.inputValue(),
    website: await c.website.inputValue(),
    birthday: await c.birthday.inputValue(),
    meeting: await c.meeting.inputValue(),
    height: await c.height.inputValue(),
    age: await c.age.inputValue(),
    terms: await radio(c.terms, 'Yes').isChecked(),
    newsletter: await radio(c.newsletter, 'No').isChecked(),
    plan: await radio(c.plan, 'Pro').isChecked(),
    country: await c.country.evaluate((select) => select.selectedOptions[0]?.textContent),
    topics: [
      await checkbox(c.topics, 'Rust').isChecked(),
      await checkbox(c.topics, 'Python').isChecked(),
      await checkbox(c.topics, 'MCP').isChecked(),
    ],
    city: await c.city.inputValue(),
    notes: await c.notes.inputValue(),
  };
}

async function everyKindByKeyboard(era, tool) {
  const { context, page } = await newPage(browser);
  try {
    await runTool(page, host.url, tool, era);
    assert.match(page.url(), /\/ask\//, 'the host shows the question');
    await page.getByText('Example server asks:').waitFor();
    await page.getByText('Register for the beta').waitFor();
    const c = controls(page);
    const k = page.keyboard;

    // Field after field, in the order of the form, with Tab; typing, Space and the arrows.
    await tabTo(page, c.name);
    await k.type('Ada Lovelace');
    await tabTo(page, c.email);
    await k.type('ada@example.com');
    await tabTo(page, c.website);
    await k.type('https://ada.example.org/');
    await tabTo(page, c.birthday);
    await k.type('12101815'); // month, day, year: the control moves on by itself
    await tabTo(page, c.meeting);
    await k.type('06012026');
    await k.press('Tab'); // from the date to the time, within the control
    await k.type('023000P');
    await tabTo(page, c.height);
    await k.type('1.72');
    await tabTo(page, c.age);
    await k.type('17'); // below the minimum: the browser itself refuses it
    // A required group with nothing chosen: Tab lands on its first choice, Space picks it.
    await tabTo(page, radio(c.terms, 'Yes'));
    await k.press('Space');
    // An optional group starts at "No answer"; the arrows move to "No".
    await tabTo(page, radio(c.newsletter, 'No answer'));
    await arrowTo(page, radio(c.newsletter, 'No'), { key: 'ArrowUp' });
    await tabTo(page, radio(c.plan, 'Free'));
    await arrowTo(page, radio(c.plan, 'Pro'));
    await tabTo(page, c.country);
    await k.type('Portugal'); // a select finds the option as its name is typed
    // Three topics where two at most are allowed: HTML cannot say so, the host's check will.
    for (const topic of ['Rust', 'Python', 'MCP']) {
      await tabTo(page, checkbox(c.topics, topic));
      await k.press('Space');
    }
    await tabTo(page, c.city);
    assert.equal(await c.city.inputValue(), 'Lisbon', 'the default is filled in');
    await tabTo(page, c.notes);
    await k.type(EXPECTED.content.notes);

    const filled = await shown(page);
    assert.deepEqual(filled, {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      website: 'https://ada.example.org/',
      birthday: '1815-12-10',
      meeting: '2026-06-01T14:30',
      height: '1.72',
      age: '17',
      terms: true,
      newsletter: true,
      plan: true,
      country: 'Portugal',
      topics: [true, true, true],
      city: 'Lisbon',
      notes: EXPECTED.content.notes,
    });

    // Enter submits with the first button, Accept; the browser blocks the age below 18.
    const posts = [];
    page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()));
    await k.press('Enter');
    assert.equal(await c.age.evaluate((input) => input.validity.rangeUnderflow), true);
    assert.ok(await isFocused(c.age), 'the browser moves to the field it refused');
    await page.waitForTimeout(300);
    assert.deepEqual(posts, [], 'nothing was posted');

    // A valid age; the three topics go to the host, which refuses them.
    await k.press('Control+A');
    await k.type('36');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      k.press('Enter'),
    ]);
    assert.equal(response.status(), 422, 'the form comes back with its error');
    const summary = page.getByRole('alert');
    await summary.waitFor();
    await page.waitForLoadState();
    assert.match(await page.title(), /^Error: /, 'the title says so first');
    assert.match(await summary.textContent(), /There is a problem/);
    const links = summary.getByRole('link');
    assert.equal(await links.count(), 1, 'one problem, linked to its field');
    const message = (await links.textContent()).trim();
    assert.match(message, /Topics/, `the message names the field: ${message}`);
    for (const topic of ['Rust', 'Python', 'MCP']) {
      assert.equal(await checkbox(c.topics, topic).getAttribute('aria-invalid'), 'true');
    }
    assert.ok((await description(c.topics)).includes(message), 'the group is described by its message');
    for (const other of [c.name, c.email, c.age, c.country, c.city, c.notes]) {
      assert.equal(await other.getAttribute('aria-invalid'), null, 'only the topics are at fault');
    }
    assert.deepEqual(await shown(page), { ...filled, age: '36' }, 'every value is kept');

    // From the summary to the field with Enter, then MCP unticked, then Accept.
    await tabTo(page, links);
    await k.press('Enter');
    assert.ok(await isFocused(checkbox(c.topics, 'Rust')), 'the link leads to the first topic');
    await tabUntil(page, checkbox(c.topics, 'MCP'), { maxPresses: 3 });
    await k.press('Space');
    await tabUntil(page, c.accept);
    await k.press('Enter');
    assert.deepEqual(await received(page), EXPECTED);
  } finally {
    await context.close();
  }
}

test('every kind of field by keyboard, refused, fixed and accepted (2025-11-25)', { timeout: 90_000 }, () =>
  everyKindByKeyboard(ERA_2025, 'register'),
);

test('every kind of field by keyboard, refused, fixed and accepted (2026-07-28)', { timeout: 90_000 }, () =>
  everyKindByKeyboard(ERA_2026, 'register_rounds'),
);

test('a screenshot of the form with every kind of field', { timeout: 60_000 }, async (t) => {
  const { context, page } = await newPage(browser, { viewport: { width: 900, height: 1200 } });
  try {
    await runTool(page, host.url, 'register');
    await controls(page).accept.waitFor();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toolnexus-web-')), 'web-form.png');
    await page.screenshot({ path: file, fullPage: true });
    const png = fs.readFileSync(file);
    assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')], 'a PNG was written');
    if (process.env.TOOLNEXUS_SCREENSHOT) {
      // A relative path names a file of the repository.
      const wanted = path.resolve(HERE, '..', '..', process.env.TOOLNEXUS_SCREENSHOT);
      fs.mkdirSync(path.dirname(wanted), { recursive: true });
      fs.copyFileSync(file, wanted);
      t.diagnostic(`screenshot written to ${wanted}`);
    }
    // The call still waits for an answer: cancel it, so the server is not left waiting.
    await page.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(await received(page), { action: 'cancel' });
  } finally {
    await context.close();
  }
});
