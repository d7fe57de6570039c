// cluster.mjs: the scaled-out host for the browser tests, every part started and stopped by pid.
// Redis, the MCP server over streamable HTTP, worker processes of app.py, and a round-robin
// proxy in front of the workers on one address; each on a free 127.0.0.1 port.

import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import crypto from 'node:crypto';

import { HERE, PYTHON, stopper } from './host.mjs';

/** Debian's Redis; the step that runs the tests installs it. */
export const REDIS_SERVER = process.env.TOOLNEXUS_REDIS_SERVER ?? '/usr/bin/redis-server';
export const REDIS_CLI = process.env.TOOLNEXUS_REDIS_CLI ?? '/usr/bin/redis-cli';
const START_TIMEOUT_MS = 60_000;

/** Every line every process of the tests wrote, in the order they came: `[who] text`. */
export const transcript = [];

function note(who, text) {
  transcript.push({ at: Date.now(), who, text });
}

/** A temporary directory of this test run, removed by `removeScratch`. */
export const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toolnexus-scaled-'));

export function removeScratch() {
  fs.rmSync(scratch, { recursive: true, force: true });
}

/** A port no one listens on now, on 127.0.0.1. */
async function freePort() {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Starts `command args` and waits until a line of its standard output or error matches
 * `ready` (a RegExp whose first group, if any, is returned as `found`). Every line goes to
 * `transcript` under `who`. Resolves to `{ child, pid, found, lines, exited, stop }`; `stop()`
 * sends SIGTERM to the pid, then SIGKILL after 10 s.
 */
async function startProcess(who, command, args, ready, options = {}) {
  if (!fs.existsSync(command) && command.includes('/')) {
    throw new Error(`${who}: there is no ${command}`);
  }
  const child = spawn(command, args, { cwd: HERE, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  const lines = [];
  const exited = once(child, 'exit').then(([code, signal]) => {
    note(who, `exited: code ${code}, signal ${signal}`);
    return { code, signal };
  });
  let resolveFound;
  const found = new Promise((resolve) => {
    resolveFound = resolve;
  });
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      note(who, line);
      const match = ready.exec(line);
      if (match) resolveFound(match[1] ?? match[0]);
    });
  }
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(null), START_TIMEOUT_MS);
  });
  const result = await Promise.race([
    found,
    exited.then(({ code, signal }) => {
      throw new Error(`${who} (${command}) exited before it was ready: code ${code}, signal ${signal}\n${lines.join('\n')}`);
    }),
    timeout,
  ]).finally(() => clearTimeout(timer));
  if (result === null) {
    process.kill(child.pid, 'SIGKILL');
    throw new Error(`${who} was not ready within ${START_TIMEOUT_MS} ms\n${lines.join('\n')}`);
  }
  const stop = stopper(child, exited);
  return { child, pid: child.pid, found: result, lines, exited, stop };
}

/** Redis on a free port, keeping nothing on disk. `cli(...args)` runs redis-cli against it. */
export async function startRedis() {
  if (!fs.existsSync(REDIS_SERVER) || !fs.existsSync(REDIS_CLI)) {
    throw new Error(`no Redis at ${REDIS_SERVER} and ${REDIS_CLI}: install Debian's redis-server (apt-get install -y redis-server)`);
  }
  const port = await freePort();
  const redis = await startProcess(
    'redis',
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    /Ready to accept connections/,
  );
  // Ready once it answers.
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const pong = spawnSync(REDIS_CLI, ['-p', String(port), 'PING'], { encoding: 'utf8' });
    if (pong.stdout?.trim() === 'PONG') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const cli = (...args) => {
    const out = spawnSync(REDIS_CLI, ['-p', String(port), '--raw', ...args], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`redis-cli ${args.join(' ')}: ${out.stderr}`);
    return out.stdout.replace(/\n$/, '');
  };
  return { url: `redis://127.0.0.1:${port}/0`, port, pid: redis.pid, cli, stop: redis.stop };
}

/**
 * The example MCP server (server.py) over streamable HTTP, stateless, logging every call's
 * `inputResponses` to a file. `received()` reads what it got: one object per call.
 */
export async function startMcpServer() {
  const log = path.join(scratch, 'received.jsonl');
  fs.writeFileSync(log, '');
  const server = await startProcess(
    'server',
    PYTHON,
    [path.join(HERE, 'server.py'), '--http', '0', '--log', log],
    /^listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/,
  );
  const received = () =>
    fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  return { url: server.found, pid: server.pid, received, stop: server.stop };
}

/** A file with a new random key, for the workers of one cluster to share. */
export function keyFile() {
  const file = path.join(scratch, `keys-${crypto.randomUUID()}.txt`);
  fs.writeFileSync(file, `${crypto.randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  return file;
}

/** One worker: `app.py` scaled out, named `name`. `kill(signal)` signals its pid. */
export async function startWorker(name, { serverUrl, store, keys, ttlMs, label }) {
  const args = [
    path.join(HERE, 'app.py'),
    '--port', '0',
    '--server-url', serverUrl,
    '--store', store,
    '--worker-name', name,
    '--snapshot-key-file', keys,
  ];
  if (ttlMs !== undefined) args.push('--ttl-ms', String(ttlMs));
  const who = label ? `${label} ${name}` : name;
  const worker = await startProcess(who, PYTHON, args, /^listening on (http:\/\/127\.0\.0\.1:\d+)$/);
  const port = Number(new URL(worker.found).port);
  return {
    name,
    port,
    url: worker.found,
    pid: worker.pid,
    lines: worker.lines,
    exited: worker.exited,
    stop: worker.stop,
    kill: async (signal) => {
      process.kill(worker.pid, signal);
      return worker.exited;
    },
  };
}

const STATIC = /\.(css|ico)$/;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer']);

/**
 * A round-robin HTTP proxy on one 127.0.0.1 port in front of `workers` (objects with `name`
 * and `port`). Each request other than a style sheet or icon goes to the next worker in turn
 * (those go to any); a worker whose connection is refused is skipped for the next one.
 * `force(name, { method, path })` sends the next request that matches (by default: the next
 * one that is not a style sheet) to that worker first. `log` lists every request: its method,
 * path, status, the worker that served it and the ones skipped.
 */
export async function startProxy(workers, who = 'proxy') {
  let turn = 0;
  const forced = [];
  const log = [];

  function order(method, pathname) {
    const names = workers.map((worker) => worker.name);
    const isStatic = STATIC.test(pathname);
    let first;
    const wanted = forced.findIndex(
      (f) => !isStatic && (!f.method || f.method === method) && (!f.path || f.path.test(pathname)),
    );
    if (wanted >= 0) {
      first = names.indexOf(forced[wanted].name);
      forced.splice(wanted, 1);
    } else if (isStatic) {
      first = turn % workers.length;
    } else {
      first = turn % workers.length;
      turn += 1;
    }
    return workers.map((_, i) => workers[(first + i) % workers.length]);
  }

  function forward(worker, request, body) {
    return new Promise((resolve, reject) => {
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
      const upstream = http.request(
        { host: '127.0.0.1', port: worker.port, method: request.method, path: request.url, headers, agent: false },
        resolve,
      );
      upstream.on('error', reject);
      upstream.end(body);
    });
  }

  const server = http.createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const { pathname } = new URL(request.url, 'http://proxy');
    const skipped = [];
    for (const worker of order(request.method, pathname)) {
      let reply;
      try {
        reply = await forward(worker, request, body);
      } catch (error) {
        if (error.code === 'ECONNREFUSED') {
          skipped.push(worker.name);
          note(who, `${request.method} ${pathname}: ${worker.name} refused the connection, skipped`);
          continue;
        }
        note(who, `${request.method} ${pathname}: ${worker.name} failed: ${error.message}`);
        response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(`worker ${worker.name} failed: ${error.message}`);
        return;
      }
      const headers = Object.fromEntries(Object.entries(reply.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
      response.writeHead(reply.statusCode, headers);
      reply.pipe(response);
      const entry = { method: request.method, path: pathname, status: reply.statusCode, worker: worker.name, skipped };
      log.push(entry);
      if (!STATIC.test(pathname)) note(who, `${request.method} ${pathname} -> ${worker.name} ${reply.statusCode}`);
      return;
    }
    response.writeHead(502, { 'content-type': 'text/plain' });
    response.end('no worker answered');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    log,
    /** Sends the next request matching `{ method, path }` to `name` first. */
    force(name, match = {}) {
      if (!workers.some((worker) => worker.name === name)) throw new Error(`no worker ${name}`);
      forced.push({ name, ...match });
    },
    /** The next request goes to the first worker; nothing stays forced. */
    reset() {
      turn = 0;
      forced.length = 0;
    },
    /** The requests other than style sheets and icons, from `start` on. */
    pages(start = 0) {
      return log.slice(start).filter((entry) => !STATIC.test(entry.path));
    },
    async stop() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * Workers `names` of app.py sharing `store` and one key, behind a proxy of their own.
 * Resolves to `{ proxy, workers, byName, stop }`.
 */
export async function startCluster({ serverUrl, store, names = ['A', 'B'], ttlMs, label = 'cluster' }) {
  const keys = keyFile();
  const workers = await Promise.all(names.map((name) => startWorker(name, { serverUrl, store, keys, ttlMs, label })));
  const proxy = await startProxy(workers, `proxy ${label}`);
  const byName = Object.fromEntries(workers.map((worker) => [worker.name, worker]));
  return {
    proxy,
    workers,
    byName,
    store,
    async stop() {
      await proxy.stop();
      await Promise.all(workers.map((worker) => worker.stop()));
    },
  };
}
