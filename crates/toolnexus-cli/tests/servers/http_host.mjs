// http_host.mjs: the streamable HTTP endpoint of the stateful TypeScript test servers: POST, GET and DELETE on
// http://127.0.0.1:PORT/mcp, one session per initialize, every session closed on SIGINT or SIGTERM.

import { createServer } from 'node:http';
import { load } from './sdk_path.mjs';

const { isInitializeRequest } = await load('@modelcontextprotocol/sdk/types.js');

/** The largest request body read. */
const MAX_BODY = 4 * 1024 * 1024;

/** Ends `res` with a JSON-RPC error (no id) and the HTTP `status`. */
export function jsonError(res, status, code, message) {
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

/**
 * Serves /mcp on 127.0.0.1:`port` (0: a free one) and says `listening on URL` through `log` once it listens.
 * `openSession()` gives the connected transport of a new session (on an initialize without a session id),
 * `find(id)` the transport of a live session, `all()` every live transport (closed on SIGINT and SIGTERM).
 */
export function serveSessions({ port, openSession, find, all, log }) {
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
        const transport = find(sessionId);
        if (!transport) {
            jsonError(res, 404, -32001, 'Session not found');
            return;
        }
        await transport.handleRequest(req, res, body);
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
            for (const transport of all()) await transport.close().catch(() => {});
            httpServer.close();
            process.exit(0);
        });
    }
    return httpServer;
}
