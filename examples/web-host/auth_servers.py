"""An authorization server and an MCP resource server that needs its tokens, both built with the
official ``mcp`` SDK's auth support, for the live test of ``toolnexus call --url``'s
authorization flow (``tests/authorization.test.mjs``).

- The authorization server: the SDK's routes (``create_auth_routes``: its metadata,
  ``/authorize``, ``/token``, ``/register``) over an in-memory provider. ``/authorize`` sends the
  browser to the server's own ``/login`` page, a plain HTML form (username, password, Sign in);
  the right credentials (``ada`` / ``correct horse``) issue a code and send the browser back to
  the client's ``redirect_uri`` with the code and the state. Access tokens live
  ``--token-seconds``; each comes with a refresh token, rotated at every refresh. ``POST
  /introspect`` (RFC 7662) is how the resource server checks a token; ``GET /log`` lists the
  ``grant_type`` of every token request (and the status it got), in order, as JSON; ``GET
  /issued`` lists every code, access token and refresh token ever issued, so that a test can
  check that none of them shows up where it must not (a test server's secrets, nothing more).
- The resource server: the SDK's ``MCPServer`` with ``AuthSettings`` (this authorization
  server, its own URL ``…/mcp``, the scope ``mcp:tools``) and a token verifier that introspects
  at the authorization server. Its one tool, ``whoami``, returns the token's subject. It is
  served over streamable HTTP at ``/mcp``, with the SDK's protected resource metadata.

``python auth_servers.py --as-port 0 --rs-port 0 --token-seconds 3`` binds 127.0.0.1 (0: any
free port) and, once both serve, prints one JSON line on standard output:
``{"authorization_server": "http://127.0.0.1:P", "resource_server": "http://127.0.0.1:Q/mcp"}``.
SIGTERM or SIGINT stops both.

Demonstration only: everything is kept in memory and the one user is written below.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import secrets
import signal
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import uvicorn
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    OAuthAuthorizationServerProvider,
    RefreshToken,
    TokenError,
    TokenVerifier,
    construct_redirect_uri,
)
from mcp.server.auth.routes import create_auth_routes
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

SCOPE = "mcp:tools"
USERNAME = "ada"
PASSWORD = "correct horse"
CODE_SECONDS = 300
REFRESH_SECONDS = 3600
PENDING_SECONDS = 600


class Provider(OAuthAuthorizationServerProvider[AuthorizationCode, RefreshToken, AccessToken]):
    """The authorization server's state, in memory: clients, sign-ins waiting for the person,
    codes, access and refresh tokens."""

    def __init__(self, issuer: str, token_seconds: int) -> None:
        self.issuer = issuer
        self.token_seconds = token_seconds
        self.clients: dict[str, OAuthClientInformationFull] = {}
        # A sign-in the login page completes: its key is in the page's hidden field.
        self.pending: dict[str, tuple[float, str, AuthorizationParams]] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}
        # Every code and token issued, for /issued.
        self.issued: list[str] = []

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        assert client_info.client_id is not None
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        key = secrets.token_urlsafe(24)
        assert client.client_id is not None
        self.pending[key] = (time.time() + PENDING_SECONDS, client.client_id, params)
        return f"{self.issuer}/login?{urllib.parse.urlencode({'request': key})}"

    def sign_in(self, key: str) -> str | None:
        """The redirect back to the client for the sign-in `key`, once: a code and the state."""
        waiting = self.pending.pop(key, None)
        if waiting is None or waiting[0] < time.time():
            return None
        _, client_id, params = waiting
        code = secrets.token_urlsafe(32)
        self.issued.append(code)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [SCOPE],
            expires_at=time.time() + CODE_SECONDS,
            client_id=client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
            subject=USERNAME,
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        code = self.codes.get(authorization_code)
        return code if code is not None and code.client_id == client.client_id else None

    def _issue(self, client_id: str, scopes: list[str], resource: str | None, subject: str | None) -> OAuthToken:
        token = secrets.token_urlsafe(32)
        refresh = secrets.token_urlsafe(32)
        self.issued += [token, refresh]
        now = int(time.time())
        self.access[token] = AccessToken(
            token=token,
            client_id=client_id,
            scopes=scopes,
            expires_at=now + self.token_seconds,
            resource=resource,
            subject=subject,
        )
        self.refresh[refresh] = RefreshToken(
            token=refresh,
            client_id=client_id,
            scopes=scopes,
            expires_at=now + REFRESH_SECONDS,
            resource=resource,
            subject=subject,
        )
        return OAuthToken(
            access_token=token,
            token_type="Bearer",
            expires_in=self.token_seconds,
            scope=" ".join(scopes),
            refresh_token=refresh,
        )

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        if self.codes.pop(authorization_code.code, None) is None:
            raise TokenError("invalid_grant", "the code was used already")
        return self._issue(
            authorization_code.client_id,
            authorization_code.scopes,
            authorization_code.resource,
            authorization_code.subject,
        )

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> RefreshToken | None:
        token = self.refresh.get(refresh_token)
        return token if token is not None and token.client_id == client.client_id else None

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        if self.refresh.pop(refresh_token.token, None) is None:
            raise TokenError("invalid_grant", "the refresh token was used already")
        return self._issue(refresh_token.client_id, scopes, refresh_token.resource, refresh_token.subject)

    async def load_access_token(self, token: str) -> AccessToken | None:
        found = self.access.get(token)
        if found is None or (found.expires_at is not None and found.expires_at < time.time()):
            return None
        return found

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)


def login_page(key: str, error: str | None = None) -> str:
    """The sign-in form: two labelled fields and a button, posted back to /login."""
    alert = f'<p role="alert">{html.escape(error)}</p>\n' if error else ""
    return f"""<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign in</title></head>
<body>
<main>
<h1>Sign in to the example authorization server</h1>
{alert}<form method="post" action="/login">
<input type="hidden" name="request" value="{html.escape(key, quote=True)}">
<p><label for="username">Username</label>
<input id="username" name="username" autocomplete="username" required></p>
<p><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Sign in</button></p>
</form>
</main>
</body>
</html>
"""


class TokenLog:
    """An ASGI wrapper that notes the ``grant_type`` of every ``POST /token`` (and the status it
    was answered with), then passes the request on unchanged."""

    def __init__(self, app: Any, entries: list[dict[str, Any]]) -> None:
        self.app = app
        self.entries = entries

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != "/token" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        messages = []
        body = b""
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        fields = urllib.parse.parse_qs(body.decode("latin-1"))
        grant_type = fields.get("grant_type")
        entry: dict[str, Any] = {"grant_type": grant_type[0] if grant_type else None, "status": None}
        self.entries.append(entry)

        async def replay() -> Any:
            return messages.pop(0) if messages else await receive()

        async def noted(message: Any) -> None:
            if message["type"] == "http.response.start":
                entry["status"] = message["status"]
            await send(message)

        await self.app(scope, replay, noted)


def authorization_server(issuer: str, token_seconds: int) -> Any:
    provider = Provider(issuer, token_seconds)
    log: list[dict[str, Any]] = []
    routes = create_auth_routes(
        provider=provider,
        issuer_url=AnyHttpUrl(issuer),
        client_registration_options=ClientRegistrationOptions(
            enabled=True, valid_scopes=[SCOPE], default_scopes=[SCOPE]
        ),
    )

    async def login(request: Request) -> Response:
        if request.method == "GET":
            key = request.query_params.get("request", "")
            if key not in provider.pending:
                return HTMLResponse("<!doctype html><title>Unknown sign-in</title><p>No such sign-in.</p>", 400)
            return HTMLResponse(login_page(key))
        form = await request.form()
        key = str(form.get("request", ""))
        if key not in provider.pending:
            return HTMLResponse("<!doctype html><title>Unknown sign-in</title><p>No such sign-in.</p>", 400)
        if form.get("username") != USERNAME or form.get("password") != PASSWORD:
            return HTMLResponse(login_page(key, "Wrong username or password."), 401)
        back = provider.sign_in(key)
        if back is None:
            return HTMLResponse("<!doctype html><title>Expired</title><p>This sign-in expired.</p>", 400)
        return RedirectResponse(back, status_code=302, headers={"Cache-Control": "no-store"})

    async def introspect(request: Request) -> Response:
        form = await request.form()
        token = form.get("token")
        found = await provider.load_access_token(token) if isinstance(token, str) else None
        if found is None:
            return JSONResponse({"active": False})
        return JSONResponse(
            {
                "active": True,
                "client_id": found.client_id,
                "scope": " ".join(found.scopes),
                "exp": found.expires_at,
                "token_type": "Bearer",
                "sub": found.subject,
                "aud": found.resource,
                "iss": issuer,
            }
        )

    async def show_log(request: Request) -> Response:
        return JSONResponse(log)

    async def show_issued(request: Request) -> Response:
        return JSONResponse(provider.issued)

    routes += [
        Route("/login", login, methods=["GET", "POST"]),
        Route("/introspect", introspect, methods=["POST"]),
        Route("/log", show_log, methods=["GET"]),
        Route("/issued", show_issued, methods=["GET"]),
    ]
    return TokenLog(Starlette(routes=routes), log)


class IntrospectingVerifier(TokenVerifier):
    """Checks a bearer token by asking the authorization server (RFC 7662)."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint

    def _ask(self, token: str) -> dict[str, Any]:
        body = urllib.parse.urlencode({"token": token}).encode()
        request = urllib.request.Request(
            self.endpoint, data=body, headers={"Content-Type": "application/x-www-form-urlencoded"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            answer: dict[str, Any] = json.loads(response.read())
        return answer

    async def verify_token(self, token: str) -> AccessToken | None:
        try:
            data = await asyncio.to_thread(self._ask, token)
        except (OSError, ValueError, urllib.error.URLError):
            return None
        if not data.get("active"):
            return None
        return AccessToken(
            token=token,
            client_id=str(data.get("client_id", "")),
            scopes=str(data.get("scope") or "").split(),
            expires_at=data.get("exp"),
            resource=data.get("aud"),
            subject=data.get("sub"),
            claims=data,
        )


def resource_server(issuer: str, url: str, verifier: TokenVerifier | None = None) -> Any:
    """The MCP server ``whoami`` at ``url``, its tokens from ``issuer``, checked by ``verifier``
    (by default, introspection at this module's authorization server)."""
    server = MCPServer(
        "whoami",
        token_verifier=verifier or IntrospectingVerifier(f"{issuer}/introspect"),
        auth=AuthSettings(
            issuer_url=AnyHttpUrl(issuer),
            resource_server_url=AnyHttpUrl(url),
            required_scopes=[SCOPE],
            validate_token_resource=True,
        ),
    )

    @server.tool()
    def whoami() -> str:
        """Who the bearer token was granted to."""
        token = get_access_token()
        return (token.subject if token is not None else None) or "nobody"

    return server.streamable_http_app(host="127.0.0.1")


class Quiet(uvicorn.Server):
    """A uvicorn server that leaves the signals to `main` (two run in one process)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def bind(port: int) -> socket.socket:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    return listener


async def serve(as_port: int, rs_port: int, token_seconds: int) -> None:
    as_socket, rs_socket = bind(as_port), bind(rs_port)
    issuer = f"http://127.0.0.1:{as_socket.getsockname()[1]}"
    resource = f"http://127.0.0.1:{rs_socket.getsockname()[1]}/mcp"
    servers = [
        Quiet(uvicorn.Config(authorization_server(issuer, token_seconds), log_level="warning", timeout_graceful_shutdown=2)),
        Quiet(uvicorn.Config(resource_server(issuer, resource), log_level="warning", timeout_graceful_shutdown=2)),
    ]

    def stop() -> None:
        for each in servers:
            each.should_exit = True

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop)
    tasks = [
        asyncio.create_task(servers[0].serve(sockets=[as_socket])),
        asyncio.create_task(servers[1].serve(sockets=[rs_socket])),
    ]
    while not all(each.started for each in servers) and not any(task.done() for task in tasks):
        await asyncio.sleep(0.05)
    if all(each.started for each in servers):
        print(json.dumps({"authorization_server": issuer, "resource_server": resource}), flush=True)
    else:
        stop()
    await asyncio.gather(*tasks)


def main() -> None:
    parser = argparse.ArgumentParser(description="An authorization server and an MCP server that needs its tokens.")
    parser.add_argument("--as-port", type=int, default=0, help="the authorization server's port on 127.0.0.1 (0: any free one)")
    parser.add_argument("--rs-port", type=int, default=0, help="the MCP server's port on 127.0.0.1 (0: any free one)")
    parser.add_argument("--token-seconds", type=int, default=3, help="how long an access token lives")
    args = parser.parse_args()
    asyncio.run(serve(args.as_port, args.rs_port, args.token_seconds))


if __name__ == "__main__":
    main()
