// device.test.mjs: `toolnexus call --url … --grant device-code`, the OAuth 2.0 device
// authorization grant (RFC 8628, an extension beyond the MCP specification), live, against
// `oidc-provider` (an OpenID Certified authorization server, oidc_device.mjs) and an MCP server
// built with the official Python SDK that its tokens protect (oidc_resource.py). The CLI meets
// the 401, finds the authorization server through the protected resource metadata, asks for a
// device code and prints where to sign in and the code; nobody types anything into the CLI.
// Chromium, the person's other device, opens the provider's own verification page, types the
// code, signs in on the provider's development login page and consents (or cancels); the CLI,
// polling meanwhile, gets the token (or the denial). Everything runs on 127.0.0.1 and is stopped
// by its process id; the browser reaches nothing else.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import readline from 'node:readline';
import { after, before, test } from 'node:test';

import { HERE, PYTHON, launchBrowser, newPage, stopper } from './host.mjs';

/** The CLI built from this checkout (`cargo build -p toolnexus-cli`). */
const TOOLNEXUS = process.env.TOOLNEXUS ?? path.join(HERE, '..', '..', 'target', 'debug', 'toolnexus');
const START_TIMEOUT_MS = 60_000;
/** The most one command may take: the sign-in in Chromium included. */
const COMMAND_TIMEOUT_MS = 60_000;

let provider;
let resource;
let browser;

/** Starts `command args` and waits for the JSON line it prints once it serves; `stop()` ends it
 * by its pid. */
async function startJsonServer(command, args, env = {}) {
  const child = spawn(command, args, { cwd: HERE, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = once(child, 'exit');
  const lines = readline.createInterface({ input: child.stdout });
  const ready = new Promise((resolve) => {
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve(JSON.parse(line));
    });
  });
  const stop = stopper(child, exited);
  let timer;
  const started = await Promise.race([
    ready,
    exited.then(([code, signal]) => {
      throw new Error(`${args[0]} exited before serving: code ${code}, signal ${signal}`);
    }),
    new Promise((resolve) => {
      timer = setTimeout(() => resolve(null), START_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  if (started === null) {
    await stop();
    throw new Error(`${args[0]} did not say where it serves within ${START_TIMEOUT_MS} ms`);
  }
  return { ...started, stop };
}

/** Starts `toolnexus call whoami` with the device grant; `code` resolves to the verification
 * link and the user code once the CLI has printed them, `done` to `{ code, signal, stdout,
 * stderr, ms }` once it exits. Killed by its pid if it runs past COMMAND_TIMEOUT_MS. */
function callWithDeviceGrant() {
  const begun = Date.now();
  const child = spawn(
    TOOLNEXUS,
    ['call', 'whoami', '--url', resource.resource_server, '--grant', 'device-code', '--client-id', provider.client_id, '--store', 'none', '--timeout', '30'],
    { cwd: HERE, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  const shown = new Promise((resolve) => {
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
      const found = stderr.match(/open (\S+) on any device and enter the code (\S+) /);
      if (found) resolve({ link: found[1], userCode: found[2] });
    });
  });
  const killer = setTimeout(() => child.exitCode === null && process.kill(child.pid, 'SIGKILL'), COMMAND_TIMEOUT_MS);
  const done = once(child, 'close').then(([code, signal]) => {
    clearTimeout(killer);
    return { code, signal, stdout, stderr, ms: Date.now() - begun };
  });
  const code = Promise.race([
    shown,
    done.then((run) => {
      throw new Error(`the CLI ended before showing a code\n${said(run)}`);
    }),
  ]);
  return { code, done };
}

/** What the command said, for an assertion's message. */
function said(run) {
  return `exit ${run.code} (signal ${run.signal})\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
}

/** The person on another device: Chromium opens the provider's verification page, types the code,
 * confirms the device, signs in on the development login page as `username`, then consents
 * (`consent`) or cancels. Every request that would leave this machine is refused. */
async function enterCode({ link, userCode }, { username, consent }) {
  const { context, page } = await newPage(browser);
  try {
    await context.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort('blockedbyclient'),
    );
    await page.goto(link);
    await page.getByRole('heading', { name: 'Sign-in' }).waitFor();
    const input = page.locator('input[name="user_code"]');
    await input.focus();
    await page.keyboard.type(userCode);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Confirm Device' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('input[name="login"]').fill(username);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('heading', { name: 'Authorize' }).waitFor();
    if (consent) {
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Sign-in Success' }).waitFor();
    } else {
      await page.getByRole('link', { name: '[ Cancel ]' }).click();
      await page.getByText(/interrupted|denied|abort/i).first().waitFor();
    }
  } finally {
    await context.close();
  }
}

before(async () => {
  provider = await startJsonServer('node', [path.join(HERE, 'oidc_device.mjs')]);
  resource = await startJsonServer(PYTHON, [path.join(HERE, 'oidc_resource.py'), '--issuer', provider.issuer, '--port', '0'], {
    OIDC_INTROSPECTION_CLIENT_ID: provider.introspection_client_id,
    OIDC_INTROSPECTION_CLIENT_SECRET: provider.introspection_client_secret,
  });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await resource?.stop();
  await provider?.stop();
});

test('the CLI shows a code, the person enters it on the provider\'s page, the call goes through', { timeout: 90_000 }, async () => {
  const call = callWithDeviceGrant();
  const shown = await call.code;
  assert.equal(shown.link, `${provider.issuer}device`, 'the verification URI, as reviewed');
  assert.match(shown.userCode, /^[A-Z]{4}-[A-Z]{4}$/);
  await enterCode(shown, { username: 'grace', consent: true });
  const run = await call.done;
  console.log(`# the device grant, the sign-in in Chromium included: ${run.ms} ms`);
  assert.equal(run.code, 0, said(run));
  const result = JSON.parse(run.stdout);
  assert.equal(result.isError, false, said(run));
  assert.equal(result.content.map((part) => part.text).join(''), 'grace', said(run));
  assert.match(run.stderr, /authorized by http:\/\/127\.0\.0\.1:\d+\/ for the scope "mcp:tools"/, said(run));
  assert.match(run.stderr, /which carries the code/, said(run));
});

test('a person who cancels on the consent page ends the call as a declined authorization', { timeout: 90_000 }, async () => {
  const call = callWithDeviceGrant();
  const shown = await call.code;
  await enterCode(shown, { username: 'grace', consent: false });
  const run = await call.done;
  console.log(`# the device grant, cancelled in Chromium: ${run.ms} ms`);
  assert.equal(run.code, 1, said(run));
  assert.equal(run.stdout, '', said(run));
  assert.match(run.stderr, /the sign-in was declined: the sign-in was denied at "http:\/\/127\.0\.0\.1:\d+\/"/, said(run));
  assert.match(run.stderr, /access_denied/, said(run));
});
