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
import { serveSessions } from './http_host.mjs';
import { load } from './sdk_path.mjs';
import { record } from './wire_record.mjs';

// sdk_path.mjs's table has no entry for these subpaths: under TOOLNEXUS_NODE_DIR name the file itself.
const sdk = (sub) => load(process.env.TOOLNEXUS_NODE_DIR ? `@modelcontextprotocol/sdk/dist/esm/${sub}` : `@modelcontextprotocol/sdk/${sub}`);
const { McpServer } = await load('@modelcontextprotocol/sdk/server/mcp.js');
const { StreamableHTTPServerTransport } = await sdk('server/streamableHttp.js');
const { InMemoryEventStore } = await sdk('examples/shared/inMemoryEventStore.js');

const ANSWER_TIMEOUT_MS = 600_000;
const GET_STREAM_WAIT_MS = 5_000;
const STANDALONE_STREAM = '_GET_stream'; // the SDK transport's key for the standalone GET stream (1.32.2)

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

serveSessions({
    port,
    openSession,
    find: (id) => sessions.get(id)?.transport,
    all: () => [...sessions.values()].map((session) => session.transport),
    log,
});
