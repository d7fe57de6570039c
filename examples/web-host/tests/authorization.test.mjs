// authorization.test.mjs: `toolnexus call --url`'s authorization flow, live, against an
// authorization server and an MCP server built with the official Python SDK's auth support
// (auth_servers.py). The CLI meets the 401, finds the authorization server, registers, shows the
// link for consent (given the way a script gives it: --answers), and opens it with
// `--browser "node signin.mjs"`: Chromium signs in on the authorization server's page and lands
// on the CLI's loopback callback. Then the token expires and the next call refreshes it with no
// browser; `auth list` and `auth logout` see and forget the grant. No token or code is ever
// printed.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { HERE, PYTHON, stopper } from './host.mjs';

/** The CLI built from this checkout (`cargo build -p toolnexus-cli`). */
const TOOLNEXUS = process.env.TOOLNEXUS ?? path.join(HERE, '..', '..', 'target', 'debug', 'toolnexus');
const SIGNIN = path.join(HERE, 'tests', 'signin.mjs');
/** How long an access token lives at the authorization server. */
const TOKEN_SECONDS = 3;
const START_TIMEOUT_MS = 60_000;
/** The most one command may take: the sign-in in Chromium included. */
const COMMAND_TIMEOUT_MS = 90_000;
/** The consent a script gives to the one sign-in asked for. */
const CONSENT = JSON.stringify([{ ok: true }]);

let servers;
let config;

/** Starts auth_servers.py and waits for its JSON line; `stop()` ends it by its pid. */
async function startServers() {
  const child = spawn(
    PYTHON,
    [path.join(HERE, 'auth_servers.py'), '--as-port', '0', '--rs-port', '0', '--token-seconds', String(TOKEN_SECONDS)],
    { cwd: HERE, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = once(child, 'exit');
  const lines = readline.createInterface({ input: child.stdout });
  const ready = new Promise((resolve) => {
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve(JSON.parse(line));
    });
  });
  let timer;
  const started = await Promise.race([
    ready,
    exited.then(([code, signal]) => {
      throw new Error(`auth_servers.py exited before serving: code ${code}, signal ${signal}`);
    }),
    new Promise((resolve) => {
      timer = setTimeout(() => resolve(null), START_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  const stop = stopper(child, exited);
  if (started === null) {
    await stop();
    throw new Error(`auth_servers.py did not say where it serves within ${START_TIMEOUT_MS} ms`);
  }
  return { as: started.authorization_server, rs: started.resource_server, stop };
}

/** Runs `toolnexus ARGS` with `input` on its standard input and the test's configuration
 * folder; resolves to `{ code, signal, stdout, stderr, ms }`. Killed by its pid if it runs
 * past COMMAND_TIMEOUT_MS. */
async function toolnexus(args, { input = null } = {}) {
  const begun = Date.now();
  const child = spawn(TOOLNEXUS, args, {
    cwd: HERE,
    env: { ...process.env, TOOLNEXUS_CONFIG_DIR: config },
    stdio: [input === null ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  if (input !== null) child.stdin.end(input);
  const killer = setTimeout(() => child.exitCode === null && process.kill(child.pid, 'SIGKILL'), COMMAND_TIMEOUT_MS);
  const [code, signal] = await once(child, 'close');
  clearTimeout(killer);
  return { code, signal, stdout, stderr, ms: Date.now() - begun };
}

/** What the command said, for an assertion's message. */
function said(run) {
  return `exit ${run.code} (signal ${run.signal})\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
}

async function getJson(url) {
  const response = await fetch(url);
  assert.equal(response.status, 200, url);
  return response.json();
}

/** Every code and token the authorization server issued: none may be printed. */
async function assertNoSecretIn(run) {
  const issued = await getJson(`${servers.as}/issued`);
  assert.ok(issued.length > 0, 'the authorization server issued something');
  for (const secret of issued) {
    assert.ok(!run.stdout.includes(secret), `a code or token on standard output\n${said(run)}`);
    assert.ok(!run.stderr.includes(secret), `a code or token on standard error\n${said(run)}`);
  }
}

/** The subject `whoami` returned, from the CallToolResult on standard output. */
function subject(run) {
  const result = JSON.parse(run.stdout);
  assert.equal(result.isError, false, said(run));
  return result.content.map((part) => part.text).join('');
}

const storeFile = () => path.join(config, 'auth.json');
const grantTypes = async () => (await getJson(`${servers.as}/log`)).map((entry) => `${entry.grant_type} ${entry.status}`);

before(async () => {
  assert.ok(fs.existsSync(TOOLNEXUS), `no toolnexus at ${TOOLNEXUS}: run cargo build -p toolnexus-cli`);
  config = fs.mkdtempSync(path.join(os.tmpdir(), 'toolnexus-auth-config-'));
  servers = await startServers();
});

after(async () => {
  await servers?.stop();
  if (config) fs.rmSync(config, { recursive: true, force: true });
});

test('a first call signs in through the browser and keeps the grant, readable by its owner alone', { timeout: 120_000 }, async () => {
  const run = await toolnexus(
    ['call', 'whoami', '--url', servers.rs, '--browser', `node ${JSON.stringify(SIGNIN)}`, '--answers', '-', '--timeout', '30'],
    { input: CONSENT },
  );
  console.log(`# first call, the sign-in in Chromium included: ${run.ms} ms`);
  assert.equal(run.code, 0, said(run));
  assert.equal(subject(run), 'ada', said(run));
  assert.match(run.stderr, /authorized by http:\/\/127\.0\.0\.1:\d+\/? for the scope "mcp:tools"/, said(run));
  await assertNoSecretIn(run);
  assert.deepEqual(await grantTypes(), ['authorization_code 200'], 'one code exchanged, nothing else');
  const mode = fs.statSync(storeFile()).mode & 0o777;
  assert.equal(mode.toString(8), '600', 'auth.json is readable by its owner alone');
  assert.equal((fs.statSync(config).mode & 0o077).toString(8), '0', 'and so is its folder');
  const kept = JSON.parse(fs.readFileSync(storeFile(), 'utf8'));
  assert.deepEqual(kept.grants.map((entry) => entry.server), [servers.rs]);
});

test('once the token has expired, the next call refreshes it with no browser', { timeout: 120_000 }, async () => {
  await sleep(TOKEN_SECONDS * 1000 + 1500);
  // No --browser and no answers: a sign-in could not happen, only a refresh.
  const run = await toolnexus(['call', 'whoami', '--url', servers.rs, '--timeout', '30']);
  console.log(`# the call after the token expired: ${run.ms} ms`);
  assert.equal(run.code, 0, said(run));
  assert.equal(subject(run), 'ada', said(run));
  assert.match(run.stderr, /the token was refreshed/, said(run));
  assert.doesNotMatch(run.stderr, /authoriz(ation link|ing again)|consent/i, said(run));
  await assertNoSecretIn(run);
  assert.deepEqual(await grantTypes(), ['authorization_code 200', 'refresh_token 200']);
});

test('auth list shows the grant but no token; auth logout empties the store', { timeout: 60_000 }, async () => {
  const listed = await toolnexus(['auth', 'list']);
  assert.equal(listed.code, 0, said(listed));
  assert.ok(listed.stdout.includes(servers.rs), said(listed));
  assert.match(listed.stdout, /scope\s+mcp:tools/, said(listed));
  assert.match(listed.stdout, /refreshable\s+yes/, said(listed));
  await assertNoSecretIn(listed);
  const out = await toolnexus(['auth', 'logout']);
  assert.equal(out.code, 0, said(out));
  assert.match(out.stderr, /1 authorization forgotten/, said(out));
  await assertNoSecretIn(out);
  const kept = fs.existsSync(storeFile()) ? JSON.parse(fs.readFileSync(storeFile(), 'utf8')).grants : [];
  assert.deepEqual(kept, [], 'nothing kept');
  const again = await toolnexus(['auth', 'list']);
  assert.equal(again.code, 0, said(again));
  assert.equal(again.stdout, '', said(again));
  assert.match(again.stderr, /no authorization is kept/, said(again));
});
