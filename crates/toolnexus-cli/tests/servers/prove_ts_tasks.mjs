// prove_ts_tasks.mjs: drives ts_tasks_server.mjs with the official TypeScript SDK client's experimental tasks over stdio and HTTP; exits 1 on any failure.
//
// Usage: TOOLNEXUS_NODE_DIR=TARGET_DIR/node node prove_ts_tasks.mjs [--wire DIR]
// The SDK's own Client (elicitation handler; client.experimental.tasks: callToolStream, getTask, getTaskResult,
// cancelTask, listTasks) calls ask_in_task (accept, accept echoing the related-task _meta, decline, an answer the
// server rejects), checks that the elicitation/create arrived with _meta["io.modelcontextprotocol/related-task"] while
// a tasks/result was open, then slow_task (statusMessage, tasks/cancel, cancel again, tasks/result of a cancelled
// task, and a call without params.task), fail_task, and ask_in_task without params.task; over stdio and over
// streamable HTTP. With --wire DIR: DIR/ts-tasks-stdio.log holds every JSON-RPC line of the stdio run in order
// (`+<ms> >>> ` client to server, `+<ms> <<< ` server to client) and DIR/ts-tasks-http.log the HTTP requests and
// responses (headers, bodies, SSE events as they arrived).
// Internal: `node prove_ts_tasks.mjs --relay LOG -- CMD...` runs CMD passing stdin/stdout through and logging each line.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { load } from './sdk_path.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const SERVER = join(HERE, 'ts_tasks_server.mjs');
const RELATED = 'io.modelcontextprotocol/related-task';

// ---- relay mode: a line-logging pipe between the client and the real server ------------------------------------
if (process.argv[2] === '--relay') {
    const logFile = process.argv[3];
    const cmd = process.argv.slice(process.argv.indexOf('--') + 1);
    const start = Date.now();
    const note = (arrow, line) => appendFileSync(logFile, `+${Date.now() - start} ${arrow} ${line}\n`);
    const child = spawn(cmd[0], cmd.slice(1), { stdio: ['pipe', 'pipe', 'inherit'], env: process.env });
    createInterface({ input: process.stdin }).on('line', (line) => { note('>>>', line); child.stdin.write(`${line}\n`); })
        .on('close', () => child.stdin.end());
    createInterface({ input: child.stdout }).on('line', (line) => { note('<<<', line); process.stdout.write(`${line}\n`); });
    child.on('exit', (code) => process.exit(code ?? 0));
    for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => { child.kill(signal); process.exit(0); });
} else {
    await main();
}

async function main() {
    const sdk = (sub) => load(process.env.TOOLNEXUS_NODE_DIR ? `@modelcontextprotocol/sdk/dist/esm/${sub}` : `@modelcontextprotocol/sdk/${sub}`);
    const { Client } = await load('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await load('@modelcontextprotocol/sdk/client/stdio.js');
    const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
    const { ElicitRequestSchema, CallToolResultSchema, CreateTaskResultSchema } = await load('@modelcontextprotocol/sdk/types.js');

    const wireAt = process.argv.indexOf('--wire');
    const WIRE = wireAt > 0 ? process.argv[wireAt + 1] : null;
    const failures = [];
    const check = (name, cond, detail = '') => {
        console.log(`${cond ? 'ok  ' : 'FAIL'} ${name}${detail === '' ? '' : `: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`}`);
        if (!cond) failures.push(name);
    };
    const textOf = (result) => (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const canon = (v) => (Array.isArray(v) ? v.map(canon) : v && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v);
    const same = (a, b) => JSON.stringify(canon(a)) === JSON.stringify(canon(b));

    if (WIRE) {
        mkdirSync(WIRE, { recursive: true });
        for (const name of ['ts-tasks-stdio.log', 'ts-tasks-http.log']) rmSync(join(WIRE, name), { force: true });
    }

    function stdioTransport() {
        const env = { ...process.env };
        if (!WIRE) return new StdioClientTransport({ command: process.execPath, args: [SERVER], env, stderr: 'ignore' });
        const args = [fileURLToPath(import.meta.url), '--relay', join(WIRE, 'ts-tasks-stdio.log'), '--', process.execPath, SERVER];
        return new StdioClientTransport({ command: process.execPath, args, env, stderr: 'ignore' });
    }

    // fetch that logs requests, response headers and every SSE chunk as it arrives.
    function loggingFetch(logFile) {
        const note = (text) => { if (logFile) appendFileSync(logFile, `${text}\n`); };
        let n = 0;
        return async (input, init) => {
            const id = ++n;
            const headers = Object.fromEntries(new Headers(init?.headers ?? {}).entries());
            const keep = Object.fromEntries(Object.entries(headers).filter(([k]) => /^(mcp|accept|content-type|last-event-id)/.test(k)));
            note(`>>> [${id}] ${init?.method ?? 'GET'} ${new URL(String(input)).pathname} ${JSON.stringify(keep)}${init?.body ? `\n${init.body}` : ''}`);
            const response = await fetch(input, init);
            const rh = Object.fromEntries([...response.headers.entries()].filter(([k]) => /^(mcp|content-type)/.test(k)));
            note(`<<< [${id}] ${response.status} ${JSON.stringify(rh)}`);
            if (!response.body) return response;
            const [mine, theirs] = response.body.tee();
            (async () => {
                const reader = theirs.pipeThrough(new TextDecoderStream()).getReader();
                for (;;) {
                    const { value, done } = await reader.read();
                    if (done) break;
                    note(`<<< [${id}] body chunk:\n${value.replace(/\n+$/, '')}`);
                }
                note(`<<< [${id}] body ended`);
            })().catch(() => {});
            return new Response(mine, { status: response.status, statusText: response.statusText, headers: response.headers });
        };
    }

    async function suite(label, transport) {
        let answer = () => ({ action: 'cancel' });
        const seen = [];
        const client = new Client({ name: 'prove-ts-tasks', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
        client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
            seen.push({ params: request.params, requestId: extra.requestId });
            return answer(request);
        });
        await client.connect(transport);
        const info = client.getServerVersion();
        check(`${label}: server info`, info?.name === 'toolnexus-test-ts-tasks' && info?.version === '1.0.0', info);
        const caps = client.getServerCapabilities();
        check(`${label}: tasks capability`, same(caps?.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } }), caps?.tasks);
        const tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t.execution?.taskSupport]));
        check(`${label}: tools and taskSupport`, same(tools, { ask_in_task: 'required', slow_task: 'optional', fail_task: 'required' }), tools);

        // Runs a tool through the SDK's own task loop (tasks/get polling, tasks/result on input_required).
        async function stream(name, args = {}) {
            const messages = [];
            for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, { task: { ttl: 60_000 } })) {
                messages.push(message);
            }
            return messages;
        }
        const reportOf = (messages) => {
            const final = messages.at(-1);
            return final?.type === 'result' ? JSON.parse(textOf(final.result)) : { error: final?.error?.message };
        };

        // 1. accept, plainly (the handler returns no _meta).
        answer = () => ({ action: 'accept', content: { name: 'Ada' } });
        let messages = await stream('ask_in_task');
        const created = messages.find((m) => m.type === 'taskCreated')?.task;
        check(`${label}: taskCreated`, created?.status === 'working' && created?.pollInterval === 200 && created?.ttl === 60_000
            && /^[0-9a-f]{32}$/.test(created?.taskId ?? ''), created);
        const asked = seen.at(-1)?.params;
        check(`${label}: elicitation/create carries the related-task _meta`,
            same(asked?._meta, { [RELATED]: { taskId: created?.taskId } }) && asked?.message === 'What is your name? (asked inside a task)',
            asked);
        check(`${label}: input_required was seen`, messages.some((m) => m.type === 'taskStatus' && m.task.status === 'input_required'),
            messages.filter((m) => m.type === 'taskStatus').map((m) => m.task.status));
        let report = reportOf(messages);
        check(`${label}: ask_in_task accept`, same(report, {
            action: 'accept', content: { name: 'Ada' }, received: { action: 'accept', content: { name: 'Ada' } },
            responseMeta: null, echoedRelatedTask: false, relatedTask: { taskId: created?.taskId },
        }), report);
        const finalResult = messages.at(-1)?.result;
        check(`${label}: tasks/result carries the related-task _meta`, same(finalResult?._meta, { [RELATED]: { taskId: created?.taskId } }),
            finalResult?._meta);

        // 2. accept, echoing the related-task _meta in the answer (what 2025-11-25 says a response MUST carry).
        answer = (request) => ({ action: 'accept', content: { name: 'Bo' }, _meta: { [RELATED]: request.params._meta?.[RELATED] } });
        messages = await stream('ask_in_task');
        report = reportOf(messages);
        check(`${label}: ask_in_task accept echoing _meta`, report.echoedRelatedTask === true
            && same(report.received, { action: 'accept', content: { name: 'Bo' }, _meta: { [RELATED]: report.relatedTask } }), report);

        // 3. decline.
        answer = () => ({ action: 'decline' });
        report = reportOf(await stream('ask_in_task'));
        check(`${label}: ask_in_task decline`, report.action === 'decline' && same(report.received, { action: 'decline' })
            && !('content' in report), report);

        // 4. an answer that does not match the schema: the server's SDK rejects it, the task ends failed.
        answer = () => ({ action: 'accept', content: { name: 42 } });
        messages = await stream('ask_in_task');
        const last = messages.at(-1);
        const statuses = messages.filter((m) => m.type === 'taskStatus').map((m) => m.task.status);
        check(`${label}: schema mismatch -> failed`, (last?.type === 'error' && /failed/.test(last.error.message))
            || (last?.type === 'result' && last.result.isError === true), { statuses, last: last?.result ?? last?.error?.message });

        // 5. by hand: tools/call with params.task, tasks/get, tasks/result.
        answer = () => ({ action: 'accept', content: { name: 'Cy' } });
        const createResult = await client.request({ method: 'tools/call', params: { name: 'ask_in_task', arguments: {}, task: { ttl: 30_000 } } },
            CreateTaskResultSchema);
        const taskId = createResult.task.taskId;
        check(`${label}: CreateTaskResult {task}`, createResult.task.status === 'working' && createResult.task.ttl === 30_000, createResult);
        let task;
        for (let i = 0; i < 50; i += 1) {
            task = await client.experimental.tasks.getTask(taskId);
            if (task.status !== 'working') break;
            await sleep(50);
        }
        check(`${label}: tasks/get input_required`, task.status === 'input_required'
            && task.statusMessage === 'waiting for the answer to "What is your name?"', task);
        const payload = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
        check(`${label}: tasks/result delivers the question then the result`, JSON.parse(textOf(payload)).action === 'accept', textOf(payload));
        task = await client.experimental.tasks.getTask(taskId);
        check(`${label}: tasks/get completed`, task.status === 'completed' && task.statusMessage === 'answer received', task);
        const listed = await client.experimental.tasks.listTasks();
        check(`${label}: tasks/list`, listed.tasks.some((t) => t.taskId === taskId), listed.tasks.length);

        // 6. slow_task: statusMessage, cancel, cancel again, tasks/result of the cancelled task.
        const slow = await client.request({ method: 'tools/call', params: { name: 'slow_task', arguments: { ms: 5000 }, task: { ttl: 60_000 } } },
            CreateTaskResultSchema);
        await sleep(700);
        task = await client.experimental.tasks.getTask(slow.task.taskId);
        check(`${label}: slow_task working with statusMessage`, task.status === 'working' && /^step \d+\/25$/.test(task.statusMessage ?? ''), task);
        const cancelled = await client.experimental.tasks.cancelTask(slow.task.taskId);
        check(`${label}: tasks/cancel returns the cancelled task`, cancelled.status === 'cancelled'
            && cancelled.statusMessage === 'Client cancelled task execution.', cancelled);
        task = await client.experimental.tasks.getTask(slow.task.taskId);
        check(`${label}: tasks/get cancelled`, task.status === 'cancelled', task);
        try {
            await client.experimental.tasks.cancelTask(slow.task.taskId);
            check(`${label}: second tasks/cancel rejected`, false);
        } catch (error) {
            check(`${label}: second tasks/cancel rejected -32602`, error.code === -32602, error.message);
        }
        try {
            const r = await client.experimental.tasks.getTaskResult(slow.task.taskId, CallToolResultSchema);
            check(`${label}: tasks/result of a cancelled task`, false, r);
        } catch (error) {
            check(`${label}: tasks/result of a cancelled task -> error`, typeof error.code === 'number', `${error.code} ${error.message}`);
        }

        // 7. slow_task without params.task: the SDK server runs the task and answers the tools/call itself.
        const plain = await client.request({ method: 'tools/call', params: { name: 'slow_task', arguments: { ms: 300 } } }, CallToolResultSchema);
        check(`${label}: slow_task without params.task`, textOf(plain) === 'done after 300 ms', plain);

        // 8. fail_task.
        messages = await stream('fail_task');
        const failedStatus = messages.filter((m) => m.type === 'taskStatus').at(-1)?.task;
        check(`${label}: fail_task -> failed`, failedStatus?.status === 'failed' && failedStatus?.statusMessage === 'fail_task: this task fails on purpose'
            && messages.at(-1)?.type === 'error', failedStatus);
        const failedPayload = await client.experimental.tasks.getTaskResult(failedStatus.taskId, CallToolResultSchema);
        check(`${label}: tasks/result of a failed task`, failedPayload.isError === true && textOf(failedPayload) === 'fail_task: this task fails on purpose',
            failedPayload);

        // 9. a required task tool called without params.task.
        const noTask = await client.request({ method: 'tools/call', params: { name: 'ask_in_task', arguments: {} } }, CallToolResultSchema);
        check(`${label}: required tool without params.task -> isError result`, noTask.isError === true
            && textOf(noTask) === 'MCP error -32601: Tool ask_in_task requires task augmentation (taskSupport: \'required\')', textOf(noTask));

        await client.close();
    }

    await suite('stdio', stdioTransport());

    const server = spawn(process.execPath, [SERVER, 'http', '0'], { stdio: ['ignore', 'ignore', 'pipe'], env: process.env });
    const url = await new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), 20_000);
        createInterface({ input: server.stderr }).on('line', (line) => {
            const found = /^ts_tasks_server: listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(line);
            if (found) { clearTimeout(timer); resolve(found[1]); }
        });
        server.on('exit', () => resolve(null));
    });
    check('http: listening line on stderr', url !== null, url ?? '');
    try {
        if (url) {
            const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: loggingFetch(WIRE ? join(WIRE, 'ts-tasks-http.log') : null) });
            await suite('http', transport);
        }
    } finally {
        server.kill('SIGTERM');
    }
    if (WIRE) console.log(`wire logs in ${WIRE}`);
    console.log(failures.length ? `${failures.length} failed` : 'all checks passed');
    process.exit(failures.length ? 1 : 0);
}
