// ts_http_server.mjs: an MCP test server built with the official TypeScript SDK (@modelcontextprotocol/sdk 1.32.2),
// streamable HTTP, stateful.
//
// Usage: TOOLNEXUS_NODE_DIR=TARGET_DIR/node node ts_http_server.mjs PORT   (TARGET_DIR as given to install.sh)
// Listens on http://127.0.0.1:PORT/mcp (PORT 0 picks a free port); once listening it writes
// `ts_http_server: listening on http://127.0.0.1:PORT/mcp` to stderr. Logs go to stderr only.
// Server `toolnexus-test-ts-http` 1.0.0, handshake era only (initialize; 2025-11-25 latest).
// Sessions: a POST `initialize` without Mcp-Session-Id makes one McpServer + StreamableHTTPServerTransport
// (session id randomUUID, the SDK's InMemoryEventStore, so SSE events carry `id:` and Last-Event-ID resumes);
// POST/GET/DELETE with its Mcp-Session-Id go to that transport. Other requests without a session id: 400;
// an unknown session id: 404 (as the spec and the SDK's examples do: the client should initialize again).
// Tools:
//   ask_form()          form-mode elicitation/create WITHOUT relatedRequestId, so the SDK sends it on the session's
//                       standalone GET SSE stream (as the SDK's own examples do): name (string, title Name,
//                       minLength 2) required, age (integer 18-120). Result text is JSON
//                       {"action", "content", "received"}: received is the ElicitResult exactly as it arrived on
//                       the wire (content is absent when the answer has none). Before asking it waits up to 5 s for
//                       the session's GET stream; with none open it returns isError (the SDK would otherwise drop
//                       the request into the event store and nothing would ever answer it).
//   ask_form_related()  the same form WITH relatedRequestId (travels on the tools/call POST's own SSE stream);
//                       same result shape.
// Every elicitation waits up to 10 minutes for an answer (the SDK's default would be 60 s).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { load } from './sdk_path.mjs';
import { record } from './wire_record.mjs';

// sdk_path.mjs's table has no entry for these subpaths: under TOOLNEXUS_NODE_DIR name the file itself.
const sdk = (sub) => load(process.env.TOOLNEXUS_NODE_DIR ? `@modelcontextprotocol/sdk/dist/esm/${sub}` : `@modelcontextprotocol/sdk/${sub}`);
const { McpServer } = await load('@modelcontextprotocol/sdk/server/mcp.js');
const { isInitializeRequest } = await load('@modelcontextprotocol/sdk/types.js');
const { StreamableHTTPServerTransport } = await sdk('server/streamableHttp.js');
const { InMemoryEventStore } = await sdk('examples/shared/inMemoryEventStore.js');

const ANSWER_TIMEOUT_MS = 600_000;
const GET_STREAM_WAIT_MS = 5_000;
const STANDALONE_STREAM = '_GET_stream'; // the SDK transport's key for the standalone GET stream (1.32.2)
const MAX_BODY = 4 * 1024 * 1024;

const port = Number(process.argv[2]);
if (process.argv.length !== 3 || !Number.isInteger(port) || port < 0 || port > 65535) {
    console.error('usage: TOOLNEXUS_NODE_DIR=TARGET_DIR/node node ts_http_server.mjs PORT');
    process.exit(2);
}
const log = (...args) => console.error('ts_http_server:', ...args);

// The SDK's InMemoryEventStore names events `${streamId}_${Date.now()}_${random}` and recovers the stream from
// the part before the first `_`, which for the standalone stream (`_GET_stream`) is '' : a GET with Last-Event-ID
// then replays nothing and its stream is registered under '' where nothing ever writes. Only that parse is fixed.
class EventStore extends InMemoryEventStore {
    getStreamIdFromEventId(eventId) {
        return eventId.split('_').slice(0, -2).join('_');
    }
}

function text(value, isError = false) {
    const body = typeof value === 'string' ? value : JSON.stringify(value);
    return { content: [{ type: 'text', text: body }], ...(isError ? { isError: true } : {}) };
}

const FORM = {
    mode: 'form',
    message: 'Who are you?',
    requestedSchema: {
        type: 'object',
        properties: {
            name: { type: 'string', title: 'Name', minLength: 2 },
            age: { type: 'integer', title: 'Age', minimum: 18, maximum: 120 },
        },
        required: ['name'],
    },
};

const sessions = new Map(); // session id -> { transport, server }

// One McpServer + transport per session; the raw elicitation results are recorded per session too.
async function openSession() {
    const sentElicitations = [];
    const rawResults = new Map();
    const server = new McpServer(
        { name: 'toolnexus-test-ts-http', version: '1.0.0' },
        { capabilities: { tools: {} }, instructions: 'Test server for toolnexus: ask_form, ask_form_related (streamable HTTP).' },
    );
    const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new EventStore(),
        onsessioninitialized: (id) => {
            sessions.set(id, { transport, server });
            log(`session ${id} opened`);
        },
    });
    transport.onclose = () => {
        const id = transport.sessionId;
        if (id && sessions.delete(id)) log(`session ${id} closed`);
    };
    const getStreamOpen = () => transport._webStandardTransport._streamMapping.has(STANDALONE_STREAM);

    // Sends the form and returns the report: the SDK's parsed result and the raw wire result.
    async function elicit(options) {
        const before = sentElicitations.length;
        const parsed = await server.server.elicitInput(FORM, { timeout: ANSWER_TIMEOUT_MS, ...options });
        const id = sentElicitations[before];
        return { action: parsed.action, content: parsed.content, received: rawResults.has(id) ? rawResults.get(id) : parsed };
    }

    server.registerTool(
        'ask_form',
        { description: 'Asks a form on the standalone GET stream: name (string, at least 2 characters, required), age (integer 18-120).' },
        async () => {
            const deadline = Date.now() + GET_STREAM_WAIT_MS;
            while (!getStreamOpen() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
            if (!getStreamOpen()) {
                return text(`no standalone GET stream open for this session after ${GET_STREAM_WAIT_MS} ms; elicitation/create not sent`, true);
            }
            return text(await elicit({}));
        },
    );

    server.registerTool(
        'ask_form_related',
        { description: 'Asks the same form on the tools/call POST\'s own SSE stream (relatedRequestId).' },
        async (extra) => text(await elicit({ relatedRequestId: extra.requestId })),
    );

    await server.connect(transport);

    // Watch the wire: each elicitation/create sent, and the raw result the client returns for it.
    record(transport, sentElicitations, rawResults);
    return transport;
}

function jsonError(res, status, code, message) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function readBody(req) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        let size = 0;
        req.on('data', (chunk) => {
            size += chunk.length;
            if (size > MAX_BODY) reject(new Error('request body too large'));
            else chunks.push(chunk);
        });
        req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        req.on('error', reject);
    });
}

async function route(req, res) {
    if (new URL(req.url, 'http://127.0.0.1').pathname !== '/mcp') {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found: the MCP endpoint is /mcp\n');
        return;
    }
    if (!['POST', 'GET', 'DELETE'].includes(req.method)) {
        res.writeHead(405, { allow: 'GET, POST, DELETE', 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }));
        return;
    }
    const sessionId = req.headers['mcp-session-id'];
    let body;
    if (req.method === 'POST') {
        try {
            body = JSON.parse(await readBody(req));
        } catch (error) {
            jsonError(res, 400, -32700, `Parse error: ${error.message}`);
            return;
        }
    }
    if (sessionId === undefined) {
        if (req.method === 'POST' && isInitializeRequest(body)) {
            const transport = await openSession();
            await transport.handleRequest(req, res, body);
            return;
        }
        jsonError(res, 400, -32000, 'Bad Request: No valid session ID provided');
        return;
    }
    const session = sessions.get(sessionId);
    if (!session) {
        jsonError(res, 404, -32001, 'Session not found');
        return;
    }
    await session.transport.handleRequest(req, res, body);
}

const httpServer = createServer((req, res) => {
    route(req, res).catch((error) => {
        log('error handling request:', error);
        if (!res.headersSent) jsonError(res, 500, -32603, 'Internal server error');
        else res.end();
    });
});
httpServer.listen(port, '127.0.0.1', () => {
    log(`listening on http://127.0.0.1:${httpServer.address().port}/mcp`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, async () => {
        for (const { transport } of sessions.values()) await transport.close().catch(() => {});
        httpServer.close();
        process.exit(0);
    });
}
