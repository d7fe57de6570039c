// ts_server.mjs: an MCP test server built with the official TypeScript SDK (@modelcontextprotocol/sdk 1.32.2), stdio.
//
// Usage: TOOLNEXUS_NODE_DIR=TARGET_DIR/node node ts_server.mjs   (TARGET_DIR as given to install.sh)
// Server `toolnexus-test-ts` 1.0.0, handshake era only (initialize; 2025-11-25 latest). Tools:
//   ask_form()        form-mode elicitation/create (name: string minLength 2 required, age: integer 18-120);
//                     the result text is JSON of exactly the ElicitResult that arrived (raw JSON-RPC result).
//   ask_url()         URL-mode elicitation with an elicitationId; on accept it sends
//                     notifications/elicitation/complete {elicitationId} before returning; reports the action.
//   withdraw(after_ms = 300)  form elicitation that the server itself cancels after after_ms with
//                     notifications/cancelled {requestId}; reports that it withdrew and what it saw.
//   needs_sign_in()   fails with -32042 (URL elicitation required) and completes the interaction
//                     200 ms later; the retry succeeds, reporting {calls, signedIn}.
//   slow(ms)          sleeps ms milliseconds, then returns "done".
// Every elicitation waits up to 10 minutes for an answer (the SDK's default would be 60 s).
import { randomUUID } from 'node:crypto';
import { load } from './sdk_path.mjs';
import { record } from './wire_record.mjs';

const { McpServer } = await load('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = await load('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = await load('zod');
const { UrlElicitationRequiredError } = await load('@modelcontextprotocol/sdk/types.js');

const ANSWER_TIMEOUT_MS = 600_000;
const SIGN_IN_URL = 'https://auth.example.com/login?state=x';

const server = new McpServer(
    { name: 'toolnexus-test-ts', version: '1.0.0' },
    { capabilities: { tools: {} }, instructions: 'Test server for toolnexus: ask_form, ask_url, withdraw, slow.' },
);

// Raw elicitation results as they arrived on the wire, keyed by the id of our elicitation/create request.
const sentElicitations = [];
const rawResults = new Map();

function text(value, isError = false) {
    const body = typeof value === 'string' ? value : JSON.stringify(value);
    return { content: [{ type: 'text', text: body }], ...(isError ? { isError: true } : {}) };
}

// Sends one elicitation and returns { id, parsed, raw }: the SDK's parsed result and the raw wire result.
async function elicit(params, extra, options = {}) {
    const before = sentElicitations.length;
    const parsed = await server.server.elicitInput(params, {
        relatedRequestId: extra.requestId,
        timeout: ANSWER_TIMEOUT_MS,
        ...options,
    });
    const id = sentElicitations[before];
    return { id, parsed, raw: rawResults.has(id) ? rawResults.get(id) : parsed };
}

server.registerTool(
    'ask_form',
    { description: 'Asks a form: name (string, at least 2 characters, required) and age (integer 18-120).' },
    async (extra) => {
        const { raw } = await elicit(
            {
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
            },
            extra,
        );
        return text(raw);
    },
);

server.registerTool(
    'ask_url',
    { description: 'Asks the user to open a sign-in URL (URL-mode elicitation); completes it on accept.' },
    async (extra) => {
        const elicitationId = randomUUID();
        const { raw, parsed } = await elicit(
            { mode: 'url', message: 'Sign in to continue', url: SIGN_IN_URL, elicitationId },
            extra,
        );
        let completed = false;
        if (parsed.action === 'accept') {
            const notifyComplete = server.server.createElicitationCompletionNotifier(elicitationId, {
                relatedRequestId: extra.requestId,
            });
            await notifyComplete();
            completed = true;
        }
        return text({ action: parsed.action, elicitationId, completionSent: completed, received: raw });
    },
);

server.registerTool(
    'withdraw',
    {
        description: 'Asks a form question, then withdraws it itself (notifications/cancelled) after after_ms.',
        inputSchema: { after_ms: z.number().int().min(0).optional() },
    },
    async ({ after_ms }, extra) => {
        const delay = after_ms ?? 300;
        const controller = new AbortController();
        let settled = false;
        const timer = setTimeout(() => {
            if (!settled) controller.abort('server withdrew the question');
        }, delay);
        try {
            const { id, raw } = await elicit(
                {
                    mode: 'form',
                    message: 'This question will be withdrawn shortly. Your favourite colour?',
                    requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
                },
                extra,
                { signal: controller.signal },
            );
            settled = true;
            return text({ withdrew: false, note: `answered before the withdrawal (${delay} ms)`, requestId: id, received: raw });
        } catch (error) {
            settled = true;
            const requestId = sentElicitations.at(-1);
            return text({
                withdrew: true,
                message: 'the server withdrew its question',
                requestId,
                error: { code: error.code, message: error.message },
            });
        } finally {
            clearTimeout(timer);
        }
    },
);

// needs_sign_in: the 2025-11-25 way of asking for a URL interaction first. The first call
// fails with -32042 (URL elicitation required) and sends the completion shortly after; the
// next call, once the client consented and retried, succeeds and says how many it took.
let signInCalls = 0;
server.registerTool(
    'needs_sign_in',
    { description: 'Fails with -32042 (URL elicitation required) until the client retries after consent.' },
    async (extra) => {
        signInCalls += 1;
        if (signInCalls === 1) {
            const elicitationId = randomUUID();
            const notifyComplete = server.server.createElicitationCompletionNotifier(elicitationId);
            setTimeout(() => { notifyComplete().catch(() => {}); }, 200);
            throw new UrlElicitationRequiredError([
                { mode: 'url', message: 'Sign in before booking', url: SIGN_IN_URL, elicitationId },
            ]);
        }
        return text({ calls: signInCalls, signedIn: true });
    },
);

server.registerTool(
    'slow',
    { description: 'Sleeps ms milliseconds, then returns "done".', inputSchema: { ms: z.number().int().min(0) } },
    async ({ ms }) => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return text('done');
    },
);

const transport = new StdioServerTransport();
await server.connect(transport);

// Watch the wire: each elicitation/create sent, and the raw result the client returns for it.
record(transport, sentElicitations, rawResults);
