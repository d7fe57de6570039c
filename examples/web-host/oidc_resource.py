"""An MCP resource server protected by another authorization server, ``oidc_device.mjs``'s
``oidc-provider``, for the live test of ``toolnexus call --url … --grant device-code``
(``tests/device.test.mjs``).

It is the official ``mcp`` SDK's ``MCPServer`` with ``AuthSettings`` (the given issuer, its own
URL ``…/mcp``, the scope ``mcp:tools``, the token's resource checked), serving the SDK's
protected resource metadata and answering ``401`` with ``WWW-Authenticate: Bearer
resource_metadata=…``. A bearer token is checked by introspection (RFC 7662) at the issuer's
``introspection_endpoint``, read from its metadata, authenticated as the introspection client
(``OIDC_INTROSPECTION_CLIENT_ID`` and ``OIDC_INTROSPECTION_CLIENT_SECRET`` in the environment).
Its one tool, ``whoami``, returns the token's subject.

``python oidc_resource.py --issuer URL --port 0`` binds 127.0.0.1 (0: any free port) and, once it
serves, prints one JSON line on standard output: ``{"resource_server": "http://127.0.0.1:P/mcp"}``.
SIGTERM or SIGINT stops it.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import signal
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import uvicorn
from mcp.server.auth.provider import AccessToken, TokenVerifier

from auth_servers import Quiet, bind
from auth_servers import resource_server as shared_resource_server


class Introspecting(TokenVerifier):
    """Checks a bearer token by asking the authorization server (RFC 7662), as a client of it."""

    def __init__(self, issuer: str, client_id: str, client_secret: str) -> None:
        self.issuer = issuer
        credentials = f"{urllib.parse.quote(client_id)}:{urllib.parse.quote(client_secret)}"
        self.authorization = "Basic " + base64.b64encode(credentials.encode()).decode()
        self.endpoint: str | None = None

    def _introspection_endpoint(self) -> str:
        if self.endpoint is None:
            metadata_url = self.issuer.rstrip("/") + "/.well-known/openid-configuration"
            with urllib.request.urlopen(metadata_url, timeout=10) as response:
                metadata: dict[str, Any] = json.loads(response.read())
            self.endpoint = str(metadata["introspection_endpoint"])
        return self.endpoint

    def _ask(self, token: str) -> dict[str, Any]:
        body = urllib.parse.urlencode({"token": token}).encode()
        request = urllib.request.Request(
            self._introspection_endpoint(),
            data=body,
            headers={"Content-Type": "application/x-www-form-urlencoded", "Authorization": self.authorization},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            answer: dict[str, Any] = json.loads(response.read())
        return answer

    async def verify_token(self, token: str) -> AccessToken | None:
        try:
            data = await asyncio.to_thread(self._ask, token)
        except (OSError, ValueError, KeyError, urllib.error.URLError):
            return None
        if not data.get("active"):
            return None
        audience = data.get("aud")
        return AccessToken(
            token=token,
            client_id=str(data.get("client_id", "")),
            scopes=str(data.get("scope") or "").split(),
            expires_at=data.get("exp"),
            resource=audience[0] if isinstance(audience, list) and len(audience) == 1 else audience,
            subject=data.get("sub"),
            claims=data,
        )


def resource_server(issuer: str, url: str, client_id: str, client_secret: str) -> Any:
    return shared_resource_server(issuer, url, Introspecting(issuer, client_id, client_secret))


async def serve(issuer: str, port: int) -> None:
    listener = bind(port)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/mcp"
    app = resource_server(
        issuer,
        url,
        os.environ.get("OIDC_INTROSPECTION_CLIENT_ID", "mcp-resource"),
        os.environ.get("OIDC_INTROSPECTION_CLIENT_SECRET", ""),
    )
    server = Quiet(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2))

    def stop() -> None:
        server.should_exit = True

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop)
    task = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started and not task.done():
        await asyncio.sleep(0.05)
    if server.started:
        print(json.dumps({"resource_server": url}), flush=True)
    await task


def main() -> None:
    parser = argparse.ArgumentParser(description="An MCP server protected by another authorization server.")
    parser.add_argument("--issuer", required=True, help="the authorization server's issuer")
    parser.add_argument("--port", type=int, default=0, help="the port on 127.0.0.1 (0: any free one)")
    args = parser.parse_args()
    asyncio.run(serve(args.issuer, args.port))


if __name__ == "__main__":
    main()
