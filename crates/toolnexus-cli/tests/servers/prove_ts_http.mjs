// prove_ts_http.mjs: drives ts_http_server.mjs with the official TypeScript SDK client over streamable HTTP, then
// with raw HTTP requests; exits 1 on any failure.
//
// Usage: TOOLNEXUS_NODE_DIR=TARGET_DIR/node node prove_ts_http.mjs [--wire DIR]
// Starts the server on a free port (PORT 0; the port is read from its stderr) and kills it by pid at the end.
// The SDK's own Client (StreamableHTTPClientTransport, capabilities {elicitation: {form: {}}}) calls ask_form three
// times (accept {name: "Ada", age: 36}, decline, cancel) and ask_form_related once; a fetch wrapper notes on which
// HTTP response (the standalone GET stream or the tools/call POST) each elicitation/create arrived. Then raw HTTP
// requests record the SSE framing: event ids, the priming event, resuming the GET stream with Last-Event-ID,
// the session errors, DELETE. With --wire DIR the raw exchanges are written to DIR/ts-http-raw.log.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from './sdk_path.mjs';

// sdk_path.mjs's table has no entry for this subpath: under TOOLNEXUS_NODE_DIR name the file itself.
const sdk = (sub) => load(process.env.TOOLNEXUS_NODE_DIR ? `@modelcontextprotocol/sdk/dist/esm/${sub}` : `@modelcontextprotocol/sdk/${sub}`);
const { Client } = await load('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
const { ElicitRequestSchema } = await load('@modelcontextprotocol/sdk/types.js');

const HERE = dirname(fileURLToPath(import.meta.url));
const SERVER = join(HERE, 'ts_http_server.mjs');
const wireAt = process.argv.indexOf('--wire');
const WIRE = wireAt > 0 ? process.argv[wireAt + 1] : null;
const failures = [];
const wireLog = [];

function check(name, cond, detail = '') {
    console.log(`${cond ? 'ok  ' : 'FAIL'} ${name}${detail === '' ? '' : `: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`}`);
    if (!cond) failures.push(name);
}

const textOf = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Starts the server on a free port; resolves with { child, url } once it says where it listens.
function startServer() {
    const child = spawn(process.execPath, [SERVER, '0'], { stdio: ['ignore', 'ignore', 'pipe'], env: process.env });
    return new Promise((resolve, reject) => {
        let err = '';
        child.stderr.setEncoding('utf8');
        child.stderr.on('data', (chunk) => {
            err += chunk;
            const m = /listening on (http:\/\/\S+)/.exec(err);
            if (m) resolve({ child, url: m[1] });
        });
        child.on('exit', (code) => reject(new Error(`server exited (${code}): ${err}`)));
        setTimeout(() => reject(new Error(`server did not start: ${err}`)), 10_000);
    });
}

// SSE blocks of a text (complete ones only): { raw, event, id, data, retry, comments }.
function sseBlocks(text) {
    const blocks = text.split('\n\n');
    blocks.pop();
    return blocks.map((raw) => {
        const block = { raw, event: undefined, id: undefined, data: undefined, retry: undefined, comments: [] };
        for (const line of raw.split('\n')) {
            if (line.startsWith(':')) { block.comments.push(line); continue; }
            const at = line.indexOf(':');
            const field = at < 0 ? line : line.slice(0, at);
            const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '');
            if (field === 'data') block.data = block.data === undefined ? value : `${block.data}\n${value}`;
            else if (field in block) block[field] = value;
        }
        return block;
    });
}

// ---- 1. the SDK client ---------------------------------------------------------------------------------------

async function suite(url) {
    // elicitation/create ids as they arrived, per HTTP method of the response that carried them.
    const arrivals = [];
    const tapFetch = async (input, init) => {
        const response = await fetch(input, init);
        const method = init?.method ?? 'GET';
        if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return response;
        const [mine, theirs] = response.body.tee();
        (async () => {
            const reader = theirs.pipeThrough(new TextDecoderStream()).getReader();
            let text = '';
            let seen = 0;
            for (;;) {
                const { value, done } = await reader.read();
                if (done) break;
                text += value;
                const blocks = sseBlocks(text);
                for (const block of blocks.slice(seen)) {
                    if (!block.data) continue;
                    const message = JSON.parse(block.data);
                    if (message.method === 'elicitation/create') arrivals.push({ via: method, id: message.id, eventId: block.id });
                }
                seen = blocks.length;
            }
        })().catch(() => {});
        return new Response(mine, { status: response.status, statusText: response.statusText, headers: response.headers });
    };

    let answer = { action: 'cancel' };
    const seen = [];
    const client = new Client({ name: 'prove-ts-http', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
        seen.push({ params: request.params, requestId: extra.requestId });
        return answer;
    });
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: tapFetch });
    await client.connect(transport);
    const info = client.getServerVersion();
    check('server info', info?.name === 'toolnexus-test-ts-http' && info?.version === '1.0.0', info);
    check('session id', /^[0-9a-f-]{36}$/.test(transport.sessionId ?? ''), transport.sessionId);
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    check('tools', JSON.stringify(tools) === '["ask_form","ask_form_related"]', tools);

    const cases = [
        ['accept', { action: 'accept', content: { name: 'Ada', age: 36 } },
            '{"action":"accept","content":{"name":"Ada","age":36},"received":{"action":"accept","content":{"name":"Ada","age":36}}}'],
        ['decline', { action: 'decline' }, '{"action":"decline","received":{"action":"decline"}}'],
        ['cancel', { action: 'cancel' }, '{"action":"cancel","received":{"action":"cancel"}}'],
    ];
    for (const [name, reply, expected] of cases) {
        answer = reply;
        const result = await client.callTool({ name: 'ask_form', arguments: {} });
        check(`ask_form ${name}: result`, !result.isError && textOf(result) === expected, textOf(result));
        const arrived = arrivals.at(-1);
        check(`ask_form ${name}: elicitation/create came on the GET stream`,
            arrived?.via === 'GET' && arrived?.id === seen.at(-1)?.requestId && /^_GET_stream_\d+_[0-9a-z]+$/.test(arrived?.eventId ?? ''),
            arrived);
    }
    const schema = seen[0]?.params.requestedSchema;
    check('ask_form asks the form', seen[0]?.params.mode === 'form' && schema?.properties?.name?.minLength === 2
        && schema?.properties?.name?.title === 'Name' && schema?.properties?.age?.type === 'integer'
        && schema?.properties?.age?.minimum === 18 && schema?.properties?.age?.maximum === 120
        && JSON.stringify(schema?.required) === '["name"]', seen[0]?.params);

    answer = { action: 'accept', content: { name: 'Ada', age: 36 } };
    const result = await client.callTool({ name: 'ask_form_related', arguments: {} });
    check('ask_form_related: result', textOf(result) === cases[0][2], textOf(result));
    const arrived = arrivals.at(-1);
    check('ask_form_related: elicitation/create came on the tools/call POST stream',
        arrived?.via === 'POST' && arrived?.id === seen.at(-1)?.requestId && !/^_GET_stream/.test(arrived?.eventId ?? ''), arrived);
    check('server-to-client ids count up from 0 per session', JSON.stringify(seen.map((s) => s.requestId)) === '[0,1,2,3]',
        seen.map((s) => s.requestId));

    await transport.terminateSession();
    check('DELETE ends the session', transport.sessionId === undefined);
    await client.close();
}

// ---- 2. raw HTTP --------------------------------------------------------------------------------------------

// One HTTP exchange. Resolves once the response head is in: { status, headers, rawHeaders, text, blocks, next, close }.
function exchange(url, label, method, { session, body, lastEventId, accept, version = '2025-11-25' } = {}) {
    const headers = { accept: accept ?? (method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream') };
    if (version) headers['mcp-protocol-version'] = version;
    if (session) headers['mcp-session-id'] = session;
    if (lastEventId) headers['last-event-id'] = lastEventId;
    const data = body === undefined ? undefined : JSON.stringify(body);
    if (data !== undefined) headers['content-type'] = 'application/json';
    const entry = { label, request: [`${method} ${new URL(url).pathname} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)], data };
    wireLog.push(entry);
    return new Promise((resolve, reject) => {
        const req = httpRequest(url, { method, headers }, (res) => {
            const stream = {
                status: res.statusCode, headers: res.headers, rawHeaders: res.rawHeaders, text: '', ended: false,
                blocks: () => sseBlocks(stream.text),
                close: () => { req.destroy(); },
            };
            let taken = 0;
            const waiters = [];
            const wake = () => { for (const w of waiters.splice(0)) w(); };
            // The next complete SSE block not yet taken (or null after ms).
            stream.next = async (ms = 3000) => {
                const deadline = Date.now() + ms;
                for (;;) {
                    const blocks = stream.blocks();
                    if (blocks.length > taken) return blocks[taken++];
                    if (stream.ended || Date.now() >= deadline) return null;
                    await new Promise((r) => { waiters.push(r); setTimeout(r, Math.max(0, deadline - Date.now())); });
                }
            };
            stream.ended$ = new Promise((r) => res.on('close', r));
            res.setEncoding('utf8');
            res.on('data', (chunk) => { stream.text += chunk; wake(); });
            res.on('close', () => { stream.ended = true; wake(); });
            res.on('error', () => {});
            entry.response = stream;
            resolve(stream);
        });
        req.on('error', (error) => { if (!entry.response) reject(error); });
        req.end(data);
    });
}

const rpc = (id, method, params = {}) => ({ jsonrpc: '2.0', id, method, params });
const INIT = rpc(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'raw', version: '1' } });
const parse = (block) => (block?.data ? JSON.parse(block.data) : null);

async function rawProbes(url) {
    const init = await exchange(url, 'POST initialize', 'POST', { body: INIT, version: null });
    const session = init.headers['mcp-session-id'];
    const priming = await init.next();
    const initResult = await init.next();
    check('raw: initialize -> 200 text/event-stream with mcp-session-id',
        init.status === 200 && init.headers['content-type'] === 'text/event-stream' && /^[0-9a-f-]{36}$/.test(session ?? ''),
        { status: init.status, headers: init.headers });
    check('raw: POST stream opens with a priming event (id, empty data, no event/retry line)',
        priming?.raw === `id: ${priming?.id}` + '\ndata: ' && new RegExp(`^[0-9a-f-]{36}_\\d+_[0-9a-z]+$`).test(priming?.id ?? ''), priming?.raw);
    check('raw: the result event carries an id on the same stream',
        initResult?.event === 'message' && initResult?.id?.split('_')[0] === priming?.id?.split('_')[0]
        && parse(initResult)?.result?.protocolVersion === '2025-11-25', initResult?.raw);

    const initialized = await exchange(url, 'POST notifications/initialized', 'POST', { session, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    check('raw: notifications/initialized -> 202', initialized.status === 202, initialized.status);

    const get = await exchange(url, 'GET (standalone stream)', 'GET', { session });
    check('raw: GET -> 200 text/event-stream', get.status === 200 && get.headers['content-type'] === 'text/event-stream'
        && get.headers['mcp-session-id'] === session, { status: get.status, headers: get.headers });
    const early = await get.next(300);
    check('raw: GET stream sends no priming event', early === null && get.text === '', get.text);
    const second = await exchange(url, 'second GET while one is open', 'GET', { session });
    await second.ended$;
    check('raw: a second GET -> 409', second.status === 409, `${second.status} ${second.text}`);

    // One ask_form on the GET stream, answered; returns the GET event that carried the request.
    async function askOnGet(stream, callId, answer) {
        const call = await exchange(url, `POST tools/call ask_form (id ${callId})`, 'POST', { session, body: rpc(callId, 'tools/call', { name: 'ask_form', arguments: {} }) });
        const callPriming = await call.next();
        const event = await stream.next();
        const request = parse(event);
        const reply = await exchange(url, `POST the answer to elicitation ${request?.id}`, 'POST', { session, body: { jsonrpc: '2.0', id: request?.id, result: answer } });
        const result = parse(await call.next());
        await call.ended$;
        return { call, callPriming, event, request, reply, result };
    }

    const first = await askOnGet(get, 2, { action: 'accept', content: { name: 'Ada', age: 36 } });
    check('raw: tools/call POST stream opens with a priming event', first.callPriming?.data === '' && first.callPriming?.event === undefined,
        first.callPriming?.raw);
    check('raw: elicitation/create on the GET stream as `event: message` + `id: _GET_stream_<ms>_<rand>`',
        first.event?.event === 'message' && /^_GET_stream_\d{13}_[0-9a-z]{1,8}$/.test(first.event?.id ?? '')
        && first.request?.method === 'elicitation/create' && first.request?.id === 0 && first.event?.retry === undefined, first.event?.raw);
    check('raw: the answer POST -> 202', first.reply.status === 202, first.reply.status);
    check('raw: the tools/call result arrives on its POST stream', JSON.parse(textOf(first.result?.result ?? { content: [] })).received?.content?.name === 'Ada',
        first.result);

    const two = await askOnGet(get, 3, { action: 'decline' });
    check('raw: second elicitation on the GET stream (id 1)', two.request?.id === 1 && /^_GET_stream_/.test(two.event?.id ?? ''), two.event?.raw);

    // Drop the GET stream, resume it with the first event's id: the second event is replayed.
    get.close();
    await sleep(200);
    const resumed = await exchange(url, `GET with Last-Event-ID ${first.event?.id}`, 'GET', { session, lastEventId: first.event?.id });
    const replayed = await resumed.next(1000);
    check('raw: GET with Last-Event-ID replays the later events, same id and data',
        resumed.status === 200 && replayed?.id === two.event?.id && replayed?.data === two.event?.data, replayed?.raw ?? resumed.text);
    const three = await askOnGet(resumed, 4, { action: 'cancel' });
    check('raw: the resumed GET stream carries new requests', three.request?.id === 2 && JSON.parse(textOf(three.result?.result ?? { content: [] })).action === 'cancel',
        three.event?.raw);

    const bad = await exchange(url, 'unknown session id', 'POST', { session: '00000000-0000-0000-0000-000000000000', body: rpc(9, 'tools/list') });
    await bad.ended$;
    check('raw: unknown session -> 404 -32001', bad.status === 404 && JSON.parse(bad.text).error?.code === -32001, `${bad.status} ${bad.text}`);
    const none = await exchange(url, 'no session id, not initialize', 'POST', { body: rpc(9, 'tools/list') });
    await none.ended$;
    check('raw: no session id (not initialize) -> 400', none.status === 400 && JSON.parse(none.text).error?.code === -32000, `${none.status} ${none.text}`);
    const getNone = await exchange(url, 'GET without a session id', 'GET', {});
    await getNone.ended$;
    check('raw: GET without a session id -> 400', getNone.status === 400, `${getNone.status} ${getNone.text}`);

    const del = await exchange(url, 'DELETE', 'DELETE', { session });
    await del.ended$;
    await resumed.ended$;
    check('raw: DELETE -> 200 and the GET stream ends', del.status === 200 && resumed.ended, del.status);
    const after = await exchange(url, 'after DELETE', 'POST', { session, body: rpc(10, 'tools/list') });
    await after.ended$;
    check('raw: after DELETE the session id -> 404', after.status === 404, `${after.status} ${after.text}`);
}

// ask_form in a session that never opened its GET stream: isError after 5 s instead of a lost request.
async function noGetStream(url) {
    const init = await exchange(url, 'POST initialize (session without GET)', 'POST', { body: INIT, version: null });
    const session = init.headers['mcp-session-id'];
    await init.ended$;
    await exchange(url, 'POST notifications/initialized', 'POST', { session, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    const started = Date.now();
    const call = await exchange(url, 'POST tools/call ask_form without a GET stream', 'POST', { session, body: rpc(2, 'tools/call', { name: 'ask_form', arguments: {} }) });
    await call.ended$;
    const result = call.blocks().map(parse).find((m) => m?.id === 2)?.result;
    check('raw: ask_form without a GET stream -> isError after ~5 s', result?.isError === true && /no standalone GET stream/.test(textOf(result)),
        { ms: Date.now() - started, text: result && textOf(result) });
    await exchange(url, 'DELETE', 'DELETE', { session });
}

const { child, url } = await startServer();
console.log(`server pid ${child.pid} at ${url}`);
const watchdog = setTimeout(() => { console.log('FAIL timed out'); child.kill(); process.exit(1); }, 60_000);
try {
    await suite(url);
    await rawProbes(url);
    await noGetStream(url);
} catch (error) {
    check('no exception', false, String(error?.stack ?? error));
}
clearTimeout(watchdog);
process.kill(child.pid);
if (WIRE) {
    mkdirSync(WIRE, { recursive: true });
    const show = (entry) => [
        `### ${entry.label}`,
        ...entry.request.map((l) => `> ${l}`),
        ...(entry.data === undefined ? [] : ['>', `> ${entry.data}`]),
        ...(entry.response ? [`< ${entry.response.status}`, ...entry.response.rawHeaders.flatMap((v, i, a) => (i % 2 ? [] : [`< ${v}: ${a[i + 1]}`])), '<',
            ...entry.response.text.split('\n').map((l) => `< ${l}`)] : ['(no response)']),
        '',
    ].join('\n');
    writeFileSync(join(WIRE, 'ts-http-raw.log'), wireLog.map(show).join('\n'));
    console.log(`wire log in ${join(WIRE, 'ts-http-raw.log')}`);
}
if (failures.length) {
    console.log(`${failures.length} check(s) failed: ${failures.join(', ')}`);
    process.exit(1);
}
console.log('all checks passed');
process.exit(0);
