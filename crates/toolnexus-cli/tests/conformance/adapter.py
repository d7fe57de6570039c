#!/usr/bin/env python3
"""adapter.py: what a person would type at each client scenario of the MCP conformance suite.

The suite runs `adapter.py URL` with MCP_CONFORMANCE_SCENARIO (the scenario's name),
MCP_CONFORMANCE_PROTOCOL_VERSION (the version it is run at) and sometimes
MCP_CONFORMANCE_CONTEXT (JSON) set. This script only runs `toolnexus` command lines (the binary
named by $TOOLNEXUS): `toolnexus tools` to see what the server offers, then `toolnexus call` for
each tool the scenario expects to be called, with `--answers` standing in for the person. It
decides nothing about the protocol; every message on the wire is the CLI's.
"""

import json
import os
import subprocess
import sys

TOOLNEXUS = os.environ["TOOLNEXUS"]
URL = sys.argv[-1]
SCENARIO = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
VERSION = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION", "")
CONTEXT = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
# TOOLNEXUS_PIN=0 lets the CLI find the version itself (its probe); by default the adapter
# pins the version the suite runs the scenario at, as the suite asks of clients.
PIN = os.environ.get("TOOLNEXUS_PIN", "1") != "0"


def toolnexus(*args, stdin=None):
    """Runs one command line; its standard output. Its standard error goes to ours."""
    line = [TOOLNEXUS, *args, "--url", URL, "--timeout", "20"]
    if PIN and VERSION:
        line += ["--protocol", VERSION]
    print("$ toolnexus " + " ".join(args), file=sys.stderr, flush=True)
    done = subprocess.run(line, input=stdin, stdout=subprocess.PIPE, text=True)
    print(f"  exit {done.returncode}", file=sys.stderr, flush=True)
    return done


def tools():
    """The tool list, as `toolnexus tools --json` prints it."""
    listed = toolnexus("tools", "--json")
    return json.loads(listed.stdout) if listed.returncode == 0 else []


def call(name, arguments=None, answers=None):
    args = ["call", name, "--args", json.dumps(arguments or {})]
    if answers is not None:
        args += ["--answers", "-"]
    return toolnexus(*args, stdin=None if answers is None else json.dumps(answers))


ACCEPT_AS_IS = [{"ok": True, "data": {}}]


def main():
    if SCENARIO == "initialize":
        toolnexus("tools")
    elif SCENARIO == "tools_call":
        for tool in tools():
            if tool["name"] == "add_numbers":
                call("add_numbers", {"a": 2, "b": 3})
    elif SCENARIO == "elicitation-sep1034-client-defaults":
        # Accept the form without typing anything: every field keeps its default.
        call("test_client_elicitation_defaults", answers=ACCEPT_AS_IS)
    elif SCENARIO == "sse-retry":
        call("test_reconnection")
    elif SCENARIO == "sep-2322-client-request-state":
        confirm = [{"ok": True, "data": {"confirmed": True}}]
        for name in ["test_mrtr_echo_state", "test_mrtr_no_state"]:
            call(name, answers=confirm)
        call("test_mrtr_unrelated")
        call("test_mrtr_no_result_type")
    elif SCENARIO in ("http-custom-headers",):
        tools()
        for each in CONTEXT.get("toolCalls", []):
            call(each["name"], each.get("arguments", {}))
    elif SCENARIO == "json-schema-2020-12-preservation":
        listed = {tool["name"]: tool for tool in tools()}
        focal = listed.get("json_schema_2020_12_tool")
        echo = next((n for n in listed if n != "json_schema_2020_12_tool"), None)
        if focal is not None and echo is not None:
            call(echo, {"schema": focal["inputSchema"]})
    else:
        # Any other scenario: list the tools and call each one listed, with no arguments
        # (http-standard-headers, http-invalid-tool-headers, request-metadata, and the
        # authorization scenarios, which stop at the first request).
        for tool in tools():
            call(tool["name"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
