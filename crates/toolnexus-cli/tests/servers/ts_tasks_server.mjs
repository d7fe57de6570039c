// ts_tasks_server.mjs: an MCP test server built with the official TypeScript SDK (@modelcontextprotocol/sdk 1.32.2) and its
// experimental tasks (the 2025-11-25 tasks: CreateTaskResult {task}, tasks/get, tasks/result, tasks/cancel).
//
// Usage: TOOLNEXUS_NODE_DIR=TARGET_DIR/node node ts_tasks_server.mjs            stdio (stdout carries JSON-RPC only;
//        exits when stdin ends)
//        TOOLNEXUS_NODE_DIR=TARGET_DIR/node node ts_tasks_server.mjs http PORT  streamable HTTP, stateful sessions, on
//        http://127.0.0.1:PORT/mcp (PORT 0 = a free port); once listening it writes
//        `ts_tasks_server: listening on http://127.0.0.1:PORT/mcp` to stderr. Logs go to stderr only.
// Server `toolnexus-test-ts-tasks` 1.0.0, handshake era only (initialize; 2025-11-25 latest). Capabilities:
// `tools` and `tasks: {list: {}, cancel: {}, requests: {tools: {call: {}}}}`; the SDK's InMemoryTaskStore and
// InMemoryTaskMessageQueue (one pair per connection / HTTP session). Every task polls at POLL_MS (200 ms); its ttl is
// what the client asked for in `params.task.ttl`, else 10 minutes.
// Tools (registered with server.experimental.tasks.registerToolTask):
//   ask_in_task()   taskSupport "required". The task goes input_required and asks a form (name: string, title Name,
//                   required) through elicitation/create carrying `_meta["io.modelcontextprotocol/related-task"]:
//                   {taskId}`; the SDK queues that request and sends it only while the client holds a `tasks/result`
//                   open (on that request's response stream over HTTP). Then the task completes with text JSON
//                   {"action", "content"?, "received", "responseMeta", "echoedRelatedTask", "relatedTask"}: received is
//                   the ElicitResult exactly as it arrived on the wire, responseMeta its `_meta` (null when absent),
//                   echoedRelatedTask whether that `_meta` carried the related-task key with this taskId, relatedTask
//                   what the request carried. statusMessage: 'waiting for the answer to "What is your name?"' while
//                   input_required, 'answer received' once completed. An answer the SDK rejects (content not matching
//                   the schema) or a JSON-RPC error answer ends the task failed: isError result and statusMessage
//                   "elicitation failed: MCP error <code>: <message>".
//   slow_task(ms)   taskSupport "optional": works ms milliseconds with statusMessage "step i/n" every 200 ms, then
//                   completes with text "done after <ms> ms". It stops early once the task is cancelled (tasks/cancel).
//                   Called without `params.task`, the SDK runs it as a task anyway and the tools/call waits for it.
//   fail_task()     taskSupport "required": ends failed (isError result "fail_task: this task fails on purpose",
//                   statusMessage the same), as 2025-11-25 wants for a tool error.
// Every elicitation waits up to 10 minutes for an answer (the SDK's default would be 60 s).
import { randomUUID } from 'node:crypto';
import { serveSessions } from './http_host.mjs';
import { load } from './sdk_path.mjs';
import { record } from './wire_record.mjs';

// sdk_path.mjs's table has no entry for these subpaths: under TOOLNEXUS_NODE_DIR name the file itself.
const sdk = (sub) => load(process.env.TOOLNEXUS_NODE_DIR ? `@modelcontextprotocol/sdk/dist/esm/${sub}` : `@modelcontextprotocol/sdk/${sub}`);
const { McpServer } = await load('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = await load('@modelcontextprotocol/sdk/server/stdio.js');
const { RELATED_TASK_META_KEY } = await load('@modelcontextprotocol/sdk/types.js');
const { z } = await load('zod');
const { InMemoryTaskStore, InMemoryTaskMessageQueue, isTerminal } = await sdk('experimental/tasks/index.js');

const POLL_MS = 200;
const DEFAULT_TTL_MS = 600_000;
const ANSWER_TIMEOUT_MS = 600_000;
const log = (...args) => console.error('ts_tasks_server:', ...args);

const FORM = {
    mode: 'form',
    message: 'What is your name? (asked inside a task)',
    requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string', title: 'Name' } },
        required: ['name'],
    },
};

function text(value, isError = false) {
    const body = typeof value === 'string' ? value : JSON.stringify(value);
    return { content: [{ type: 'text', text: body }], ...(isError ? { isError: true } : {}) };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// One McpServer with its own task store and message queue. After connect(transport), call watch() to record the
// raw elicitation results.
function buildServer() {
    const taskStore = new InMemoryTaskStore();
    const sentElicitations = [];
    const rawResults = new Map();
    const server = new McpServer(
        { name: 'toolnexus-test-ts-tasks', version: '1.0.0' },
        {
            capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
            taskStore,
            taskMessageQueue: new InMemoryTaskMessageQueue(),
            instructions: 'Test server for toolnexus: ask_in_task, slow_task, fail_task (2025-11-25 tasks).',
        },
    );

    // The task record the client would see, read straight from the store (no session filter).
    const current = (taskId) => taskStore.getTask(taskId);
    const newTask = (extra) => extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? DEFAULT_TTL_MS, pollInterval: POLL_MS });
    // Stores the final result unless the task already ended (e.g. cancelled meanwhile); statusMessage, when given,
    // is set first (storing a result leaves the last one in place).
    async function finish(taskId, status, result, statusMessage) {
        const task = await current(taskId);
        if (!task || isTerminal(task.status)) return;
        if (statusMessage) await taskStore.updateTaskStatus(taskId, task.status, statusMessage);
        await taskStore.storeTaskResult(taskId, status, result);
    }
    const taskHandlers = (run) => ({
        createTask: async (...args) => {
            const extra = args.at(-1);
            // The in-memory store hands out its live record: answer with a copy, or the CreateTaskResult would show
            // whatever status the work below has set by the time the response is written.
            const task = { ...(await newTask(extra)) };
            run(task.taskId, ...args.slice(0, -1)).catch((error) => log(`task ${task.taskId} crashed:`, error));
            return { task };
        },
        getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
    });

    server.experimental.tasks.registerToolTask(
        'ask_in_task',
        {
            description: 'Runs as a task that asks a form (name, required) through tasks/result; reports the answer exactly as received.',
            execution: { taskSupport: 'required' },
        },
        taskHandlers(async (taskId) => {
            await taskStore.updateTaskStatus(taskId, 'input_required', 'waiting for the answer to "What is your name?"');
            const relatedTask = { taskId };
            const before = sentElicitations.length;
            let parsed;
            try {
                parsed = await server.server.elicitInput(FORM, { relatedTask, timeout: ANSWER_TIMEOUT_MS });
            } catch (error) {
                const message = `elicitation failed: ${error.message}`;
                await finish(taskId, 'failed', text(message, true), message);
                return;
            }
            const id = sentElicitations[before];
            const received = rawResults.has(id) ? rawResults.get(id) : parsed;
            const responseMeta = received?._meta ?? null;
            const report = { action: parsed.action };
            if (parsed.content !== undefined) report.content = parsed.content;
            Object.assign(report, {
                received,
                responseMeta,
                echoedRelatedTask: responseMeta?.[RELATED_TASK_META_KEY]?.taskId === taskId,
                relatedTask,
            });
            await finish(taskId, 'completed', text(report), 'answer received');
        }),
    );

    server.experimental.tasks.registerToolTask(
        'slow_task',
        {
            description: 'Works ms milliseconds with status messages; stops early when the task is cancelled.',
            inputSchema: { ms: z.number().int().min(0) },
            execution: { taskSupport: 'optional' },
        },
        taskHandlers(async (taskId, { ms }) => {
            const steps = Math.max(1, Math.round(ms / POLL_MS));
            for (let step = 1; step <= steps; step += 1) {
                const task = await current(taskId);
                if (!task || isTerminal(task.status)) return; // cancelled: stop working
                await taskStore.updateTaskStatus(taskId, 'working', `step ${step}/${steps}`);
                await sleep(ms / steps);
            }
            await finish(taskId, 'completed', text(`done after ${ms} ms`));
        }),
    );

    server.experimental.tasks.registerToolTask(
        'fail_task',
        { description: 'A task that ends failed (isError result).', execution: { taskSupport: 'required' } },
        taskHandlers(async (taskId) => {
            await sleep(50);
            const message = 'fail_task: this task fails on purpose';
            await finish(taskId, 'failed', text(message, true), message);
        }),
    );

    const watch = (transport) => record(transport, sentElicitations, rawResults);
    return { server, watch };
}

async function serveStdio() {
    const { server, watch } = buildServer();
    const transport = new StdioServerTransport();
    await server.connect(transport);
    watch(transport);
    // The task store's ttl timers would keep the process alive after the client has gone: end with stdin.
    process.stdin.on('end', () => {
        server.close().finally(() => process.exit(0));
    });
}

async function serveHttp(port) {
    const { StreamableHTTPServerTransport } = await sdk('server/streamableHttp.js');
    const sessions = new Map(); // session id -> transport

    async function openSession() {
        const { server, watch } = buildServer();
        const transport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (id) => {
                sessions.set(id, transport);
                log(`session ${id} opened`);
            },
        });
        transport.onclose = () => {
            const id = transport.sessionId;
            if (id && sessions.delete(id)) log(`session ${id} closed`);
        };
        await server.connect(transport);
        watch(transport);
        return transport;
    }

    serveSessions({
        port,
        openSession,
        find: (id) => sessions.get(id),
        all: () => sessions.values(),
        log,
    });
}

const argv = process.argv.slice(2);
if (argv.length === 0) {
    await serveStdio();
} else if (argv.length === 2 && argv[0] === 'http' && /^\d+$/.test(argv[1]) && Number(argv[1]) <= 65535) {
    await serveHttp(Number(argv[1]));
} else {
    console.error('usage: TOOLNEXUS_NODE_DIR=TARGET_DIR/node node ts_tasks_server.mjs [http PORT]');
    process.exit(2);
}
