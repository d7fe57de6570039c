# misbehaving.py: a hand-written stdio MCP server of the handshake era that breaks the rules, for the client's robustness tests.
"""A server nobody should write: during its one tool call it writes a line that is not JSON,
answers a request never sent, sends an elicitation whose schema is a nested object, pings,
asks for roots/list (which the client does not serve), then one valid elicitation. The tool's
result reports every response the client sent, by request id, so a test can check each.

Usage: python misbehaving.py   (stdio; standard library only)
"""

import json
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)


VALID = {"type": "object", "properties": {"ok": {"type": "boolean", "title": "OK?"}}, "required": ["ok"]}
NESTED = {"type": "object", "properties": {"address": {"type": "object", "properties": {}}}}

while True:
    message = read()
    method = message.get("method")
    if method == "server/discover":
        send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "Method not found"}})
    elif method == "initialize":
        send({"jsonrpc": "2.0", "id": message["id"], "result": {
            "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
            "serverInfo": {"name": "misbehaving", "version": "0.0.1"}}})
    elif method == "tools/call":
        call_id = message["id"]
        sys.stdout.write("this line is not JSON-RPC\n")
        send({"jsonrpc": "2.0", "id": 999, "result": {}})
        asks = [
            {"jsonrpc": "2.0", "id": "e1", "method": "elicitation/create",
             "params": {"message": "Where do you live?", "requestedSchema": NESTED}},
            {"jsonrpc": "2.0", "id": "p1", "method": "ping"},
            {"jsonrpc": "2.0", "id": "r1", "method": "roots/list"},
            {"jsonrpc": "2.0", "id": "e3", "method": "elicitation/create",
             "params": {"message": "Is this fine?", "requestedSchema": VALID}},
        ]
        received = {}
        for ask in asks:
            send(ask)
            while ask["id"] not in received:
                reply = read()
                if "id" in reply and "method" not in reply:
                    received[reply["id"]] = reply.get("result", reply.get("error"))
        send({"jsonrpc": "2.0", "id": call_id, "result": {
            "content": [{"type": "text", "text": json.dumps(received, sort_keys=True)}]}})
    elif "id" in message and method is not None:
        send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "Method not found"}})
