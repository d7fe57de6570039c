"""Runner of the suite's ``auth_flow`` operation through the public Python API: one
``AuthFlow``, begun with ``AuthFlow.start`` from the case's challenge or with
``AuthFlow.refresh`` from a stored grant, each ``Fetch`` matched against the script and answered
from it, each ``Authorize`` answered with the script's redirect, as
``conformance/src/ops/auth.rs`` does.

The outcome is the grant (``{"grant": <Grant.to_json()>}``), the authorization still waiting
(``{"authorize": {"url", "state", "redirectUri", "consent"}}``, the consent ``Request`` but
its id) or the ``AuthError`` the flow raised. A
script that does not match what the flow does is a failure of the case (``CaseMismatch``), and
so is a secret found in an error's message or in a ``Fetch``'s ``repr``, and a message of 1,000
characters or more.
"""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import parse_qsl

import toolnexus
from conformance_common import Runner, Text


class CaseMismatch(AssertionError):
    """The flow did not do what the case's script says."""


SECRET_MEMBERS = (
    "code",
    "device_code",
    "code_verifier",
    "client_secret",
    "client_assertion",
    "assertion",
    "subject_token",
    "refresh_token",
)
"""Form members whose values act for whoever holds them."""

MIN_AUTO_SECRET = 8
"""Secrets collected by the runner shorter than this are not looked for (one so short could
stand in a message by chance); those the case lists are, whatever their length."""

CONFIG_NAMES = {
    "clientId": "client_id",
    "clientSecret": "client_secret",
    "clientIssuer": "client_issuer",
    "clientMetadataUrl": "client_metadata_url",
    "maxAuthorizations": "max_authorizations",
    "dpop": "dpop",
    "grant": "grant",
    "clientKey": "client_key",
    "assertion": "assertion",
    "idToken": "id_token",
    "idpTokenEndpoint": "idp_token_endpoint",
    "idpClientId": "idp_client_id",
    "idpClientSecret": "idp_client_secret",
}
"""The case's configuration members, as the keyword arguments of ``AuthConfig``."""

CONFIG_SECRETS = ("clientSecret", "assertion", "idToken", "idpClientSecret")


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _only(obj: dict[str, Any], known: tuple[str, ...], what: str) -> None:
    unknown = set(obj) - set(known)
    if unknown:
        raise CaseMismatch(f"{what} has unknown members {sorted(unknown)}")


def _entropy(value: Any, size: int) -> bytes:
    if value is None:
        return bytes(range(size))
    raw = bytes.fromhex(value)
    if len(raw) != size:
        raise CaseMismatch(f"entropy is {size} bytes")
    return raw


def _config(given: dict[str, Any], secrets: list[str]) -> toolnexus.AuthConfig:
    _only(given, ("clientName", "redirectUri", *CONFIG_NAMES), "`config`")
    kwargs = {CONFIG_NAMES[k]: v for k, v in given.items() if k in CONFIG_NAMES}
    secrets.extend(given[k] for k in CONFIG_SECRETS if len(given.get(k) or "") >= MIN_AUTO_SECRET)
    return toolnexus.AuthConfig(given.get("clientName", "toolnexus"), given["redirectUri"], **kwargs)


def _fits(want: Any, got: Any, present: bool, at: str) -> None:
    """``got`` holds what ``want`` says: objects the members listed (``None``: absent), arrays
    and scalars equal (numbers by value)."""
    if want is None:
        if present:
            raise CaseMismatch(f"at {at!r} expected nothing, got {_compact(got)}")
        return
    if not present:
        raise CaseMismatch(f"at {at!r} expected {_compact(want)}, got nothing")
    if isinstance(want, dict):
        if not isinstance(got, dict):
            raise CaseMismatch(f"at {at!r} expected an object, got {_compact(got)}")
        for key, member in want.items():
            _fits(member, got.get(key), key in got, f"{at}/{key}")
        return
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            raise CaseMismatch(f"at {at!r} expected {_compact(want)}, got {_compact(got)}")
        for i, (w, g) in enumerate(zip(want, got)):
            _fits(w, g, True, f"{at}/{i}")
        return
    same_type = isinstance(want, bool) == isinstance(got, bool)
    if not same_type or want != got:
        raise CaseMismatch(f"at {at!r} expected {_compact(want)}, got {_compact(got)}")


def _b64url(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def _fits_jwt(want: dict[str, Any], jwt: str) -> None:
    _only(want, ("header", "claims"), "`jwt`")
    parts = jwt.split(".")
    if len(parts) != 3:
        raise CaseMismatch(f"{jwt!r} is not a JWT")
    for name, part in (("header", parts[0]), ("claims", parts[1])):
        if name in want:
            try:
                _fits(want[name], json.loads(_b64url(part)), True, "")
            except CaseMismatch as e:
                raise CaseMismatch(f"the JWT's {name}: {e}") from None


def _fits_member(want: Any, got: list[str]) -> None:
    if want is None:
        if got:
            raise CaseMismatch(f"expected none, got {got}")
        return
    if len(got) != 1:
        raise CaseMismatch(f"expected one value, got {got}")
    if isinstance(want, str):
        if want != got[0]:
            raise CaseMismatch(f"expected {want!r}, got {got[0]!r}")
    elif isinstance(want, dict) and set(want) == {"jwt"}:
        _fits_jwt(want["jwt"], got[0])
    else:
        raise CaseMismatch('a member is expected as null, a string or {"jwt": ...}')


def _fits_pairs(want: list[Any], got: list[tuple[str, str]]) -> None:
    if len(want) != len(got):
        raise CaseMismatch(f"expected {len(want)} pairs, got {got}")
    for pair, (name, value) in zip(want, got):
        if not (isinstance(pair, list) and len(pair) == 2):
            raise CaseMismatch("each pair is [name, value]")
        if pair[0] != name:
            raise CaseMismatch(f"expected {pair[0]!r}, got {name!r} in {got}")
        try:
            _fits_member(pair[1], [value])
        except CaseMismatch as e:
            raise CaseMismatch(f"{name}: {e}") from None


def _fits_members(want: Any, got: list[tuple[str, str]], fold: bool) -> None:
    """An exact list of pairs, or an object of the members listed."""
    if isinstance(want, list):
        _fits_pairs(want, got)
        return
    for name, member in want.items():
        values = [v for n, v in got if (n.lower() == name.lower() if fold else n == name)]
        try:
            _fits_member(member, values)
        except CaseMismatch as e:
            raise CaseMismatch(f"{name}: {e}") from None


def _form(fetch: toolnexus.Fetch) -> list[tuple[str, str]] | None:
    kind = fetch.header("content-type") or ""
    if not kind.startswith("application/x-www-form-urlencoded"):
        return None
    return parse_qsl(fetch.body.decode("utf-8"), keep_blank_values=True)


def _fits_request(fetch: toolnexus.Fetch, want: dict[str, Any]) -> None:
    _only(want, ("method", "url", "headers", "form", "json", "body"), "`request`")
    shown = f"{fetch.method} {fetch.url}"
    if "method" in want and want["method"] != fetch.method:
        raise CaseMismatch(f"expected a {want['method']} request, the flow asks for {shown}")
    if want["url"] != fetch.url:
        raise CaseMismatch(f"expected a request to {want['url']}, the flow asks for {shown}")
    try:
        if "headers" in want:
            _fits_members(want["headers"], fetch.headers, fold=True)
        if "form" in want:
            form = _form(fetch)
            if form is None:
                raise CaseMismatch("the body is not a form")
            _fits_members(want["form"], form, fold=False)
        if "body" in want and want["body"].encode("utf-8") != fetch.body:
            raise CaseMismatch(f"expected the body {want['body']!r}, got {fetch.body!r}")
        if "json" in want:
            _fits(want["json"], json.loads(fetch.body), True, "")
    except CaseMismatch as e:
        raise CaseMismatch(f"{shown}: {e}") from None


def _fits_authorize(url: str, want: dict[str, Any]) -> None:
    _only(want, ("url", "endpoint", "query"), "`authorize`")
    if "url" in want and want["url"] != url:
        raise CaseMismatch(f"expected {want['url']}, got {url}")
    endpoint, _, query = url.partition("?")
    if "endpoint" in want and want["endpoint"] != endpoint:
        raise CaseMismatch(f"expected the endpoint {want['endpoint']}, got {url}")
    if "query" in want:
        _fits_members(want["query"], parse_qsl(query, keep_blank_values=True), fold=False)


def _hidden_in_repr(fetch: toolnexus.Fetch, secrets: list[str]) -> None:
    printed = repr(fetch)
    own = [v for n, v in fetch.headers if n.lower() in ("authorization", "dpop")]
    own += [v for n, v in (_form(fetch) or []) if n in SECRET_MEMBERS]
    for secret in [s for s in own if len(s) >= MIN_AUTO_SECRET] + secrets:
        if secret in printed:
            raise CaseMismatch(f"the request's repr shows the secret {secret!r}: {printed}")


def _response(given: Any) -> tuple[int, list[tuple[str, str]], bytes]:
    if not isinstance(given, dict):
        raise CaseMismatch("a request step needs its `response` object")
    _only(given, ("status", "headers", "body", "text"), "the response")
    if "body" in given and "text" in given:
        raise CaseMismatch("give `body` or `text`, not both")
    body = _compact(given["body"]) if "body" in given else given.get("text", "")
    return given.get("status", 200), list(given.get("headers", {}).items()), body.encode("utf-8")


def _issued(body: bytes, secrets: list[str]) -> None:
    try:
        doc = json.loads(body)
    except ValueError:
        return
    if isinstance(doc, dict):
        for key in ("access_token", "refresh_token", "id_token", "client_secret"):
            token = doc.get(key)
            if isinstance(token, str) and len(token) >= MIN_AUTO_SECRET:
                secrets.append(token)


MAX_MESSAGE_CHARS = 1000
"""An error's message has fewer characters than this, whatever the server sent."""


def _shown(error: toolnexus.AuthError, secrets: list[str]) -> toolnexus.AuthError:
    if len(error.message) >= MAX_MESSAGE_CHARS:
        raise CaseMismatch(f"the error's message is long: {error.message}")
    for secret in secrets:
        if secret in error.message:
            raise CaseMismatch(f"the error's message shows the secret {secret!r}: {error.message}")
    return error


def _describe(next_: Any) -> str:
    if isinstance(next_, toolnexus.Fetch):
        return f"a request, {next_.method} {next_.url}"
    if isinstance(next_, toolnexus.Authorize):
        return f"an authorization, {next_.url}"
    if isinstance(next_, toolnexus.Poll):
        return f"a poll, {next_.request.method} {next_.request.url}"
    return "its grant"


def _fits_poll(poll: toolnexus.Poll, want: Any) -> None:
    """Checks a poll of the device grant against the step's ``poll``: every member required
    and compared exactly."""
    if not isinstance(want, dict):
        raise CaseMismatch("`poll` is an object")
    members = ("at", "attempt", "userCode", "verificationUri", "verificationUriComplete", "expiresAt")
    _only(want, members, "`poll`")
    code = poll.code
    got = {
        "at": poll.at_ms,
        "attempt": poll.attempt,
        "userCode": code.user_code,
        "verificationUri": code.verification_uri,
        "verificationUriComplete": code.verification_uri_complete,
        "expiresAt": code.expires_at_ms,
    }
    for member in members:
        if member not in want or want[member] != got[member]:
            raise CaseMismatch(f"the poll: `{member}` is {got[member]!r}, not {want.get(member, 'missing')!r}")


def _begin(script: dict[str, Any], config: toolnexus.AuthConfig, secrets: list[str]) -> Any:
    server, now = script["server"], script.get("now", 0)
    if ("challenge" in script) == ("refresh" in script):
        raise CaseMismatch("give exactly one of `challenge` and `refresh`")
    if "challenge" in script:
        challenge = script["challenge"]
        _only(challenge, ("status", "wwwAuthenticate"), "`challenge`")
        previous = script.get("previous")
        return toolnexus.AuthFlow.start(
            server,
            toolnexus.parse_challenge(challenge["status"], challenge.get("wwwAuthenticate")),
            config,
            previous=None if previous is None else toolnexus.Grant.from_json(_compact(previous)),
            entropy=_entropy(script.get("entropy"), 64),
        )
    refresh = script["refresh"]
    _only(refresh, ("grant", "untimed", "entropy"), "`refresh`")
    if "entropy" in script or "previous" in script:
        raise CaseMismatch("a refresh takes its entropy in `refresh`, and no `previous`")
    grant = toolnexus.Grant.from_json(_compact(refresh["grant"]))
    secrets.extend(
        t for t in (grant.access_token, grant.refresh_token) if t and len(t) >= MIN_AUTO_SECRET
    )
    if refresh.get("untimed", False):
        return toolnexus.AuthFlow.refresh_untimed(server, grant, config)
    return toolnexus.AuthFlow.refresh(
        server, grant, config, now_ms=now, entropy=_entropy(refresh.get("entropy"), 32)
    )


def _step(flow: Any, next_: Any, step: dict[str, Any], at: int, secrets: list[str], last: bool) -> Any:
    """Runs one step: the next thing the flow does, or its error when the step is the last."""
    if "request" in step:
        _only(step, ("poll", "request", "response", "now"), "a request step")
        if isinstance(next_, toolnexus.Fetch) and "poll" not in step:
            fetch = next_
        elif isinstance(next_, toolnexus.Poll) and "poll" in step:
            _fits_poll(next_, step["poll"])
            fetch = next_.request
        else:
            raise CaseMismatch(f"the flow gives {_describe(next_)}")
        _fits_request(fetch, step["request"])
        _hidden_in_repr(fetch, secrets)
        status, headers, body = _response(step.get("response"))
        secrets.extend(
            v for n, v in (_form(fetch) or []) if n in SECRET_MEMBERS and len(v) >= MIN_AUTO_SECRET
        )
        _issued(body, secrets)
        try:
            return flow.on_response(status, headers, body, now_ms=at)
        except toolnexus.AuthError as error:
            if not last:
                raise CaseMismatch(f"the flow failed, steps remain: {error}") from None
            raise _shown(error, secrets) from None
    if "redirect" in step:
        _only(step, ("authorize", "redirect", "now"), "a redirect step")
        if not isinstance(next_, toolnexus.Authorize):
            raise CaseMismatch(f"the flow gives {_describe(next_)}")
        if "authorize" in step:
            _fits_authorize(next_.url, step["authorize"])
        query = step["redirect"].replace("{state}", next_.state)
        secrets.extend(v for n, v in parse_qsl(query) if n == "code" and len(v) >= MIN_AUTO_SECRET)
        try:
            return flow.on_redirect(query, now_ms=at)
        except toolnexus.AuthError as error:
            if not last:
                raise CaseMismatch(f"the flow failed, steps remain: {error}") from None
            raise _shown(error, secrets) from None
    raise CaseMismatch("a step has neither `request` nor `redirect`")


def _auth_flow(_case: dict[str, Any], text: Text, _limits: toolnexus.Limits) -> str:
    script = json.loads(text)
    _only(
        script,
        ("server", "challenge", "previous", "refresh", "config", "entropy", "now", "secrets", "steps"),
        "the script",
    )
    secrets: list[str] = list(script.get("secrets", []))
    now = script.get("now", 0)
    steps = script.get("steps", [])
    try:
        config = _config(script["config"], secrets)
        flow, next_ = _begin(script, config, secrets)
    except toolnexus.AuthError as error:
        if steps:
            raise CaseMismatch(f"the flow failed to start, steps remain: {error}") from None
        raise _shown(error, secrets) from None
    for i, step in enumerate(steps):
        try:
            next_ = _step(flow, next_, step, step.get("now", now), secrets, last=i + 1 == len(steps))
        except CaseMismatch as e:
            raise CaseMismatch(f"step {i}: {e}") from None
    if isinstance(next_, toolnexus.Done):
        return '{"grant":' + next_.grant.to_json() + "}"
    if isinstance(next_, toolnexus.Authorize):
        consent = next_.request
        return _compact(
            {
                "authorize": {
                    "url": next_.url,
                    "state": next_.state,
                    "redirectUri": next_.redirect_uri,
                    "consent": {"kind": consent.kind, "prompt": consent.prompt, "url": consent.url},
                }
            }
        )
    fetch = next_.request if isinstance(next_, toolnexus.Poll) else next_
    raise CaseMismatch(f"the flow asks for {fetch.method} {fetch.url} after the last step")


AUTH_RUNNERS: dict[str, Runner] = {"auth_flow": _auth_flow}
