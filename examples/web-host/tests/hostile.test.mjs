// hostile.test.mjs: a server whose every text is hostile (hostile.json). Its text is shown
// literally, nothing it wrote runs, nothing leaves for another origin, and what the form sends
// back is exactly its defaults, byte for byte. Run once as served (under the host's CSP) and
// once with the CSP bypassed, so that the markup alone is shown to be inert.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { HERE, newPage, received, runTool, tabUntil, watch, withHostAndBrowser } from './host.mjs';

const HOSTILE = JSON.parse(fs.readFileSync(path.join(HERE, 'hostile.json'), 'utf8'));
const SCRIPT = '<script>window.tnPwned=1</script>';

let host;
let browser;
withHostAndBrowser((started, launched) => {
  host = started;
  browser = launched;
});

/** What the form sends when accepted untouched: each property's default. */
function defaults() {
  return Object.fromEntries(
    Object.entries(HOSTILE.schema.properties)
      .filter(([, property]) => 'default' in property)
      .map(([name, property]) => [name, property.default]),
  );
}

/** Nothing the server wrote became markup or ran. */
async function inert(page, what) {
  const found = await page.evaluate((flag) => {
    const attributes = [];
    for (const element of document.querySelectorAll('*')) {
      for (const { name, value } of element.attributes) {
        if (/^on/i.test(name) || name === 'autofocus' || /^\s*javascript:/i.test(value)) {
          attributes.push(`<${element.localName} ${name}="${value}">`);
        }
      }
    }
    return {
      flag: globalThis[flag],
      elements: [...document.querySelectorAll('script, img, svg, iframe, object, embed, style')].map(
        (element) => element.outerHTML.slice(0, 80),
      ),
      attributes,
    };
  }, HOSTILE.flag);
  assert.deepEqual(found, { flag: undefined, elements: [], attributes: [] }, `${what}: nothing hostile is live`);
}

for (const bypassCSP of [false, true]) {
  const how = bypassCSP ? 'with the CSP bypassed' : 'under the CSP';
  test(`a hostile server's text is shown, never run (${how})`, { timeout: 90_000 }, async () => {
    const { context, page } = await newPage(browser, { bypassCSP });
    const seen = watch(page);
    try {
      // The tool list shows the tools' hostile titles and descriptions as text.
      await page.goto(`${host.url}/`);
      assert.ok((await page.getByRole('main').innerText()).includes(HOSTILE.message));
      await inert(page, 'the tool list');

      await runTool(page, host.url, 'hostile');
      await page.getByRole('button', { name: 'Accept' }).waitFor();
      const text = await page.getByRole('main').innerText();
      assert.ok(text.includes('Example server asks:'), 'who asks is the host\'s name for the server');
      assert.ok(text.includes(SCRIPT), 'the raw <script> text is shown');
      assert.ok(text.includes(HOSTILE.message), 'the message, literally');
      for (const [name, property] of Object.entries(HOSTILE.schema.properties)) {
        if (property.title) assert.ok(text.includes(property.title), `the title of ${JSON.stringify(name)}, literally`);
      }
      assert.ok(text.length > 100_000, 'the 100 KB description is all there');
      await inert(page, 'the hostile form');

      // Every control gets the focus and the pointer, as a person's would.
      const accept = page.getByRole('button', { name: 'Accept' });
      await tabUntil(page, accept, { maxPresses: 40 });
      for (const label of await page.locator('label, legend').all()) await label.hover();
      await inert(page, 'the hostile form, once used');

      // Accepted untouched: the server gets its own defaults back, byte for byte.
      await accept.click();
      assert.deepEqual(await received(page), { action: 'accept', content: defaults() });
      const result = await page.getByRole('code').textContent();
      assert.ok(result.includes(SCRIPT), 'the result shows the raw text');
      await inert(page, 'the result');

      // The URL-mode tool with a javascript: address.
      await runTool(page, host.url, 'hostile_url');
      await page.getByRole('button', { name: 'Decline' }).waitFor();
      assert.ok((await page.getByRole('main').innerText()).includes(HOSTILE.urlMessage));
      await inert(page, 'the hostile consent');
      await page.getByRole('button', { name: 'Decline' }).click();
      assert.deepEqual(await received(page), { action: 'decline' });

      assert.deepEqual(seen.dialogs, [], 'no dialog opened');
      assert.deepEqual(seen.pageErrors, [], 'no script error');
      assert.deepEqual(seen.consoleErrors, [], 'no console error');
      const elsewhere = seen.requests.filter((url) => new URL(url).origin !== host.url);
      assert.deepEqual(elsewhere, [], 'only the host was contacted');
      assert.ok(seen.requests.length > 0, 'the requests were recorded');
    } finally {
      await context.close();
    }
  });
}
