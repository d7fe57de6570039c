// sdk_path.mjs: finds the npm packages (the TypeScript MCP SDK, zod) for ts_server.mjs and prove_ts.mjs.
//
// ES modules ignore NODE_PATH, so the packages install.sh put in TARGET_DIR/node/node_modules are found
// here: from $TOOLNEXUS_NODE_DIR (the folder holding node_modules, i.e. TARGET_DIR/node) when set,
// else from the usual lookup (a node_modules folder next to these scripts or above them).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Package subpath -> file inside node_modules, for the pinned @modelcontextprotocol/sdk 1.32.2 layout.
const FILES = {
    '@modelcontextprotocol/sdk/server/mcp.js': '@modelcontextprotocol/sdk/dist/esm/server/mcp.js',
    '@modelcontextprotocol/sdk/server/stdio.js': '@modelcontextprotocol/sdk/dist/esm/server/stdio.js',
    '@modelcontextprotocol/sdk/client/index.js': '@modelcontextprotocol/sdk/dist/esm/client/index.js',
    '@modelcontextprotocol/sdk/client/stdio.js': '@modelcontextprotocol/sdk/dist/esm/client/stdio.js',
    '@modelcontextprotocol/sdk/types.js': '@modelcontextprotocol/sdk/dist/esm/types.js',
    zod: 'zod/index.js',
};

export async function load(spec) {
    const dir = process.env.TOOLNEXUS_NODE_DIR;
    if (dir) {
        const file = join(dir, 'node_modules', FILES[spec] ?? spec);
        if (!existsSync(file)) {
            throw new Error(`${spec} not found under ${dir}/node_modules: run install.sh TARGET_DIR and set TOOLNEXUS_NODE_DIR=TARGET_DIR/node`);
        }
        return import(pathToFileURL(file).href);
    }
    try {
        return await import(spec);
    } catch (error) {
        throw new Error(`${spec} not found (${error.code ?? error.message}): run install.sh TARGET_DIR and set TOOLNEXUS_NODE_DIR=TARGET_DIR/node`);
    }
}
