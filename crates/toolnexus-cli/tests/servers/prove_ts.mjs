// prove_ts.mjs: drives ts_server.mjs with the official TypeScript SDK client over stdio; exits 1 on any failure.
//
// Usage: TOOLNEXUS_NODE_DIR=TARGET_DIR/node node prove_ts.mjs [--wire DIR]
// The SDK's own Client (elicitation handler, completion-notification handler) calls ask_form (accept and
// decline), ask_url (observes notifications/elicitation/complete), withdraw (observes the server's
// notifications/cancelled through the handler's AbortSignal), slow (and a client-side timeout), then a few
// raw JSON-RPC lines record what the server answers to server/discover and to initialize. With --wire DIR
// the raw JSON-RPC lines in both directions are written to DIR.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { load } from './sdk_path.mjs';

const { Client } = await load('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await load('@modelcontextprotocol/sdk/client/stdio.js');
const { ElicitRequestSchema, ElicitationCompleteNotificationSchema } = await load('@modelcontextprotocol/sdk/types.js');

const HERE = dirname(fileURLToPath(import.meta.url));
const SERVER = join(HERE, 'ts_server.mjs');
const wireAt = process.argv.indexOf('--wire');
const WIRE = wireAt > 0 ? process.argv[wireAt + 1] : null;
const failures = [];
const shq = (s) => `'${s.replaceAll("'", "'\\''")}'`;

function check(name, cond, detail = '') {
    console.log(`${cond ? 'ok  ' : 'FAIL'} ${name}${detail === '' ? '' : `: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`}`);
    if (!cond) failures.push(name);
}

const textOf = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function transport(logName) {
    const env = { ...process.env };
    if (!WIRE) return new StdioClientTransport({ command: process.execPath, args: [SERVER], env, stderr: 'ignore' });
    const base = join(WIRE, logName);
    const cmd = `tee -a ${shq(base + '.in')} | ${shq(process.execPath)} ${shq(SERVER)} | tee -a ${shq(base + '.out')}`;
    return new StdioClientTransport({ command: 'sh', args: ['-c', cmd], env, stderr: 'ignore' });
}

// What the elicitation handler does next, and what it saw.
let plan = { answer: { action: 'cancel' } };
const seen = [];
const completions = [];

async function suite() {
    const client = new Client(
        { name: 'prove-ts', version: '1.0.0' },
        { capabilities: { elicitation: { form: {}, url: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
        const entry = { params: request.params, requestId: extra.requestId, aborted: false, reason: undefined };
        seen.push(entry);
        if (plan.waitForAbort) {
            await new Promise((resolve) => {
                if (extra.signal.aborted) return resolve();
                extra.signal.addEventListener('abort', resolve, { once: true });
                setTimeout(resolve, 5000);
            });
            entry.aborted = extra.signal.aborted;
            entry.reason = extra.signal.reason;
            return { action: 'cancel' };
        }
        return plan.answer;
    });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
        completions.push({ elicitationId: notification.params.elicitationId, at: seen.length });
    });

    await client.connect(transport('ts-stdio'));
    const info = client.getServerVersion();
    check('server info', info?.name === 'toolnexus-test-ts' && info?.version === '1.0.0', info);
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    check('tools', JSON.stringify(tools) === '["ask_form","ask_url","needs_sign_in","slow","withdraw"]', tools);

    plan = { answer: { action: 'accept', content: { name: 'Ada', age: 36 } } };
    let result = await client.callTool({ name: 'ask_form', arguments: {} });
    const schema = seen.at(-1)?.params.requestedSchema;
    check('ask_form asks the form', seen.at(-1)?.params.mode === 'form' && schema?.properties?.name?.minLength === 2
        && schema?.properties?.age?.minimum === 18 && schema?.properties?.age?.maximum === 120
        && JSON.stringify(schema?.required) === '["name"]', seen.at(-1)?.params);
    check('ask_form reports the ElicitResult', textOf(result) === '{"action":"accept","content":{"name":"Ada","age":36}}', textOf(result));

    plan = { answer: { action: 'decline' } };
    result = await client.callTool({ name: 'ask_form', arguments: {} });
    check('ask_form decline', textOf(result) === '{"action":"decline"}', textOf(result));

    plan = { answer: { action: 'accept' } };
    result = await client.callTool({ name: 'ask_url', arguments: {} });
    const urlParams = seen.at(-1)?.params;
    check('ask_url asks URL mode', urlParams?.mode === 'url' && urlParams?.url === 'https://auth.example.com/login?state=x'
        && typeof urlParams?.elicitationId === 'string', urlParams);
    const report = JSON.parse(textOf(result));
    check('ask_url completion notification', completions.length === 1 && completions[0].elicitationId === urlParams?.elicitationId,
        completions);
    check('ask_url reports the action', report.action === 'accept' && report.completionSent === true, report);

    plan = { answer: { action: 'decline' } };
    result = await client.callTool({ name: 'ask_url', arguments: {} });
    check('ask_url decline: no completion', JSON.parse(textOf(result)).action === 'decline' && completions.length === 1,
        textOf(result));

    plan = { waitForAbort: true };
    const started = Date.now();
    result = await client.callTool({ name: 'withdraw', arguments: {} });
    const asked = seen.at(-1);
    const withdrawn = JSON.parse(textOf(result));
    check('withdraw: the handler saw the cancel', asked?.aborted === true, { reason: String(asked?.reason), ms: Date.now() - started });
    check('withdraw: result says it withdrew', withdrawn.withdrew === true && withdrawn.requestId === asked?.requestId, withdrawn);

    result = await client.callTool({ name: 'slow', arguments: { ms: 200 } });
    check('slow', textOf(result) === 'done', textOf(result));
    try {
        await client.callTool({ name: 'slow', arguments: { ms: 3000 } }, undefined, { timeout: 300 });
        check('slow with a 300 ms client timeout', false, 'no timeout');
    } catch (error) {
        check('slow with a 300 ms client timeout', error.code === -32001, `${error.code} ${error.message}`);
    }
    await client.close();
}

// Raw JSON-RPC lines, one answer read per request (or a quiet period when none comes).
async function raw(logName, lines) {
    const child = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'ignore'], env: process.env });
    const answers = [];
    const waiting = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
        const message = JSON.parse(line);
        if (waiting.length) waiting.shift()(message); else answers.push(message);
    });
    const next = (ms) => new Promise((resolve) => {
        if (answers.length) return resolve(answers.shift());
        waiting.push(resolve);
        setTimeout(() => { const i = waiting.indexOf(resolve); if (i >= 0) { waiting.splice(i, 1); resolve(null); } }, ms);
    });
    const log = [];
    const got = [];
    for (const message of lines) {
        const line = JSON.stringify(message);
        log.push(`>>> ${line}`);
        child.stdin.write(line + '\n');
        if (message.id === undefined) continue;
        const answer = await next(2000);
        log.push(answer ? `<<< ${JSON.stringify(answer)}` : '<<< (no answer within 2 s)');
        got.push(answer);
    }
    child.stdin.end();
    await new Promise((resolve) => child.on('close', resolve));
    if (WIRE) {
        const { appendFileSync } = await import('node:fs');
        appendFileSync(join(WIRE, 'ts-stdio-raw.log'), `### ${logName}\n${log.join('\n')}\n\n`);
    }
    return got;
}

const META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'prove-ts-raw', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} } },
};
const init = (version) => ({ jsonrpc: '2.0', id: 2, method: 'initialize',
    params: { protocolVersion: version, capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } } });

async function rawProbes() {
    let [discover, initialized] = await raw('server/discover first, then initialize(2026-07-28)', [
        { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } },
        init('2026-07-28'),
    ]);
    check('raw: server/discover -> -32601', discover?.error?.code === -32601, discover);
    check('raw: initialize(2026-07-28) -> 2025-11-25', initialized?.result?.protocolVersion === '2025-11-25',
        initialized?.result?.protocolVersion);
    [initialized] = await raw('initialize(2025-06-18)', [init('2025-06-18')]);
    check('raw: initialize(2025-06-18) -> 2025-06-18', initialized?.result?.protocolVersion === '2025-06-18',
        initialized?.result?.protocolVersion);
    const [early] = await raw('tools/call before initialize', [
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: { ms: 1 } } },
    ]);
    check('raw: tools/call before initialize is served (no init gate)', textOf(early?.result ?? { content: [] }) === 'done', early);
}

if (WIRE) {
    mkdirSync(WIRE, { recursive: true });
    for (const f of ['ts-stdio.in', 'ts-stdio.out', 'ts-stdio-raw.log']) rmSync(join(WIRE, f), { force: true });
}
const watchdog = setTimeout(() => { console.log('FAIL timed out'); process.exit(1); }, 60_000);
try {
    await suite();
    await rawProbes();
} catch (error) {
    check('no exception', false, String(error?.stack ?? error));
}
clearTimeout(watchdog);
if (WIRE) console.log(`wire logs in ${WIRE}`);
if (failures.length) {
    console.log(`${failures.length} check(s) failed: ${failures.join(', ')}`);
    process.exit(1);
}
console.log('all checks passed');
