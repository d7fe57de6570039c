#!/usr/bin/env python3
"""adapter.py: what a person would type at each client scenario of the MCP conformance suite.

The suite runs `adapter.py URL` with MCP_CONFORMANCE_SCENARIO (the scenario's name),
MCP_CONFORMANCE_PROTOCOL_VERSION (the version it is run at) and sometimes
MCP_CONFORMANCE_CONTEXT (JSON) set. This script only runs `toolnexus` command lines (the binary
named by $TOOLNEXUS): `toolnexus tools` to see what the server offers, then `toolnexus call` for
each tool the scenario expects to be called, with `--answers` standing in for the person. It
decides nothing about the protocol; every message on the wire is the CLI's.

Authorization is configured as a person would: `--browser` names browser.py (which opens the
authorization link and follows its redirects back to the CLI's loopback listener),
`--client-metadata-url` the client's metadata document, and `--client-id`, `--client-issuer`
and TOOLNEXUS_CLIENT_SECRET the client pre-registered at an authorization server when the
context gives one. The scenarios of grants for machines get `--grant` and what it needs: the
client's key (`--client-key`), the workload's JWT (`--assertion-file`) or the person's ID token
and identity provider (`--id-token-file`, `--idp-token-endpoint`, `--idp-client-id`), each
secret in a file only the user can read. Confidential credentials (a client secret, a client
key, a workload's JWT, an enterprise exchange) go only to the authorization server they are
bound to with `--client-issuer`: the context names it for a pre-registered client; for the
grants for machines it does not, so the adapter looks it up once in the server's protected
resource metadata, as the person running a workload would have found out where it signs in
before binding its secret there. In the authorization scenarios `--answers` consents to each sign-in. Each
run keeps its authorizations in a configuration folder of its own (TOOLNEXUS_CONFIG_DIR,
with `--store file`),
shared by its commands and removed at its end: the suite runs scenarios at once, and a token
kept from another run would skip the flow the scenario checks.
"""

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request

TOOLNEXUS = os.environ["TOOLNEXUS"]
URL = sys.argv[-1]
SCENARIO = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
VERSION = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION", "")
CONTEXT = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
# TOOLNEXUS_PIN=0 lets the CLI find the version itself (its probe); by default the adapter
# pins the version the suite runs the scenario at, as the suite asks of clients.
PIN = os.environ.get("TOOLNEXUS_PIN", "1") != "0"
# The person's browser, for the authorization links the CLI opens.
BROWSER = shlex.join([sys.executable, os.path.join(os.path.dirname(__file__), "browser.py")])
# The client's metadata document: the suite expects this URL as the client id where the
# authorization server accepts one.
CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"
# The person consents to each sign-in a command asks for (a first one and step-ups).
CONSENT = [{"ok": True}] * 3
AUTHORIZATION = SCENARIO.startswith("auth/")


def toolnexus(*args, stdin=None, env=None):
    """Runs one command line; its standard output. Its standard error goes to ours."""
    # The run's grants go to its own folder, never to the keychain of whoever runs the suite.
    line = [TOOLNEXUS, *args, "--url", URL, "--timeout", "20", "--store", "file"]
    if PIN and VERSION:
        line += ["--protocol", VERSION]
    line += ["--browser", BROWSER, "--client-metadata-url", CLIENT_METADATA_URL]
    environment = dict(env or os.environ)
    if CONTEXT.get("client_id"):
        line += ["--client-id", CONTEXT["client_id"]]
        if CONTEXT.get("client_secret"):
            environment["TOOLNEXUS_CLIENT_SECRET"] = CONTEXT["client_secret"]
    grant = machine_grant(environment)
    line += grant
    confidential = CONTEXT.get("client_secret") or grant
    if CONTEXT.get("issuer") or confidential:
        issuer = CONTEXT.get("issuer") or bound_issuer()
        if issuer:
            line += ["--client-issuer", issuer]
    print("$ toolnexus " + " ".join(args), file=sys.stderr, flush=True)
    done = subprocess.run(
        line, input=stdin, stdout=subprocess.PIPE, text=True, env=environment
    )
    print(f"  exit {done.returncode}", file=sys.stderr, flush=True)
    return done


def bound_issuer():
    """The authorization server the server's own protected resource metadata names (RFC 9728,
    at the location made from the server's path), or None."""
    parsed = urllib.parse.urlsplit(URL)
    location = f"{parsed.scheme}://{parsed.netloc}/.well-known/oauth-protected-resource{parsed.path}"
    try:
        with urllib.request.urlopen(location, timeout=10) as response:
            servers = json.load(response).get("authorization_servers") or []
    except (OSError, ValueError):
        return None
    return servers[0] if servers else None


def secret_file(name, text):
    """A file only this user can read, in the run's configuration folder, holding `text`."""
    path = os.path.join(os.environ["TOOLNEXUS_CONFIG_DIR"], name)
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as file:
        file.write(text)
    return path


def machine_grant(environment):
    """The options of a grant for machines, when the scenario is one: a person who runs a
    workload would give them instead of signing in."""
    if SCENARIO == "auth/client-credentials-basic":
        return ["--grant", "client-credentials"]
    if CONTEXT.get("private_key_pem"):
        key = secret_file("client-key.pem", CONTEXT["private_key_pem"])
        return ["--grant", "client-credentials", "--client-key", key]
    if CONTEXT.get("valid_jwt"):
        assertion = secret_file("workload.jwt", CONTEXT["valid_jwt"])
        return ["--grant", "jwt-bearer", "--assertion-file", assertion]
    if CONTEXT.get("idp_id_token"):
        id_token = secret_file("id-token.jwt", CONTEXT["idp_id_token"])
        options = ["--grant", "enterprise", "--id-token-file", id_token]
        options += ["--idp-token-endpoint", CONTEXT["idp_token_endpoint"]]
        if CONTEXT.get("idp_client_id"):
            options += ["--idp-client-id", CONTEXT["idp_client_id"]]
        return options
    return []


def tools():
    """The tool list, as `toolnexus tools --json` prints it."""
    if AUTHORIZATION:
        listed = toolnexus("tools", "--json", "--answers", "-", stdin=json.dumps(CONSENT))
    else:
        listed = toolnexus("tools", "--json")
    return json.loads(listed.stdout) if listed.returncode == 0 else []


def call(name, arguments=None, answers=None):
    if answers is None and AUTHORIZATION:
        answers = CONSENT
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
        # authorization scenarios, whose commands sign in first).
        for tool in tools():
            call(tool["name"])
    return 0


if __name__ == "__main__":
    CONFIG = tempfile.mkdtemp(prefix="toolnexus-conformance-config-")
    os.environ["TOOLNEXUS_CONFIG_DIR"] = CONFIG
    try:
        sys.exit(main())
    finally:
        shutil.rmtree(CONFIG, ignore_errors=True)
