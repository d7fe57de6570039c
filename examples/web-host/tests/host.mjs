// host.mjs: what the browser tests share: the example host started as a child process, Chromium
// launched through playwright-core, and the steps a person takes on the host's pages.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

export const HERE = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);

/** The Python that runs the host: the one with toolnexus, mcp and Starlette installed. */
export const PYTHON = process.env.TOOLNEXUS_PYTHON ?? 'python3';
/** The browser the machine has; playwright-core never downloads one. */
const CHROMIUM = process.env.TOOLNEXUS_CHROMIUM ?? '/usr/bin/chromium';
const START_TIMEOUT_MS = 60_000;

export const ERA_2025 = '2025-11-25';
export const ERA_2026 = '2026-07-28';

/**
 * Starts `app.py --port 0` on 127.0.0.1 and waits for the line that says where it listens.
 * Resolves to `{ url, stop }`; `stop()` ends the host by its pid.
 */
/**
 * A function that stops `child` by its process id: SIGTERM, then SIGKILL if it has not exited
 * (`exited`, its `exit` event) within 10 s. Nothing when it has exited already.
 */
export function stopper(child, exited) {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    process.kill(child.pid, 'SIGTERM');
    const killer = setTimeout(
      () => child.exitCode === null && child.signalCode === null && process.kill(child.pid, 'SIGKILL'),
      10_000,
    );
    await exited;
    clearTimeout(killer);
  };
}

export async function startHost() {
  const child = spawn(PYTHON, [path.join(HERE, 'app.py'), '--port', '0'], {
    cwd: HERE,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
  const lines = readline.createInterface({ input: child.stdout });
  const listening = new Promise((resolve) => {
    lines.on('line', (line) => {
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (match) resolve(match[1]);
    });
  });
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(null), START_TIMEOUT_MS);
  });
  const started = await Promise.race([
    listening,
    exited.then(({ code, signal }) => {
      throw new Error(`the host (${PYTHON} app.py) exited before listening: code ${code}, signal ${signal}`);
    }),
    timeout,
  ]).finally(() => clearTimeout(timer));
  if (started === null) {
    child.kill('SIGKILL');
    throw new Error(`the host did not say where it listens within ${START_TIMEOUT_MS} ms`);
  }
  const stop = stopper(child, exited);
  return { url: started, stop };
}

/** Chromium from the machine, headless, with nothing of its own on the network. */
export async function launchBrowser() {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`no browser at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** A fresh browser context (its own cookies) and page; `options` go to `newContext`. */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({
    locale: 'en-US',
    timezoneId: 'UTC',
    viewport: { width: 1000, height: 900 },
    ...options,
  });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  return { context, page };
}

/** Opens the tool list, chooses the protocol version and runs `tool`; resolves once the
 * host has redirected to the tool's first question or its result. */
export async function runTool(page, base, tool, era = ERA_2025) {
  await page.goto(`${base}/`);
  await page.getByRole('radio', { name: new RegExp(`^${era}`) }).check();
  await page.getByRole('button', { name: `Run ${tool}`, exact: true }).click();
  await page.waitForURL(/\/(ask|calls)\//);
}

/** What the server received, as its tool returned it on the result page. */
export async function received(page) {
  await page.waitForURL(/\/calls\//);
  await page.getByRole('heading', { level: 1, name: /^Result of / }).waitFor();
  return JSON.parse(await page.getByRole('code').textContent());
}

/** The element that has the keyboard focus is `locator`'s. */
export async function isFocused(locator) {
  return locator.evaluate((element) => element === document.activeElement);
}

/**
 * Presses Tab until `target` has the focus. Controls made of parts (a date's month, day and
 * year) take several presses; no other control of the page may get the focus on the way, so
 * the tab order is the order of the form.
 */
export async function tabTo(page, target, { maxPresses = 6 } = {}) {
  const start = await page.evaluateHandle(() => document.activeElement);
  for (let press = 0; press < maxPresses; press += 1) {
    await page.keyboard.press('Tab');
    if (await isFocused(target)) return;
    const stayed = await page.evaluate((before) => document.activeElement === before, start);
    if (!stayed) {
      const where = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 160));
      throw new Error(`Tab went to ${where} before reaching ${target}`);
    }
  }
  throw new Error(`${target} never got the focus after ${maxPresses} presses of Tab`);
}

/** Presses Tab until `target` has the focus, passing any control on the way. */
export async function tabUntil(page, target, { maxPresses = 60 } = {}) {
  for (let press = 0; press < maxPresses; press += 1) {
    await page.keyboard.press('Tab');
    if (await isFocused(target)) return;
  }
  throw new Error(`${target} never got the focus after ${maxPresses} presses of Tab`);
}

/** Presses an arrow key in a radio group until `radio` is checked. */
export async function arrowTo(page, radio, { key = 'ArrowDown', maxPresses = 8 } = {}) {
  for (let press = 0; press < maxPresses; press += 1) {
    if (await radio.isChecked()) return;
    await page.keyboard.press(key);
  }
  if (!(await radio.isChecked())) throw new Error(`${radio} never got checked with ${key}`);
}

/** The text of the elements `element`'s `aria-describedby` names. */
export async function description(locator) {
  return locator.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? `(no element #${id})`)
      .join(' '),
  );
}

/** Runs axe-core on the page as served (its CSP included) and resolves to its results. */
export async function runAxe(page) {
  const source = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(source);
  return page.evaluate(() => globalThis.axe.run(document));
}

/** Listens to everything a page does that a payload could cause. */
export function watch(page) {
  const seen = { requests: [], dialogs: [], consoleErrors: [], pageErrors: [] };
  page.on('request', (request) => seen.requests.push(request.url()));
  page.on('dialog', (dialog) => {
    seen.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  page.on('console', (message) => {
    if (message.type() === 'error') seen.consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => seen.pageErrors.push(String(error)));
  return seen;
}

/** Starts the host and the browser before a file's tests and stops both after them; `ready`
 * is given the two once they run. */
export function withHostAndBrowser(ready) {
  let host;
  let browser;
  before(async () => {
    host = await startHost();
    browser = await launchBrowser();
    ready(host, browser);
  });
  after(async () => {
    await browser?.close();
    await host?.stop();
  });
}
