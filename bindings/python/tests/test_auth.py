"""Authorization driven by the host's HTTP client: ``AuthFlow`` through canned responses, with
every request asserted exactly, step-up, refresh, hostile servers, and what a ``repr`` shows."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import pickle
import time
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

import toolnexus
from toolnexus import (
    AuthConfig,
    AuthError,
    AuthFlow,
    Authorize,
    Challenge,
    Done,
    Fetch,
    Grant,
    parse_challenge,
)
from toolnexus import _native

M = "https://mcp.example.com"
SERVER = f"{M}/mcp"
PRM_URL = f"{M}/.well-known/oauth-protected-resource/mcp"
A = "https://auth.example.com"
REDIRECT = "http://127.0.0.1:33418/callback"
NOW = 1_796_495_437_000
ENTROPY = bytes(range(64))
VERIFIER = base64.urlsafe_b64encode(ENTROPY[:32]).rstrip(b"=").decode()
CHALLENGE_401 = f'Bearer error="invalid_token", resource_metadata="{PRM_URL}", scope="mcp:read"'
DCR_BODY = (
    '{"client_name":"toolnexus","redirect_uris":["http://127.0.0.1:33418/callback"],'
    '"grant_types":["authorization_code","refresh_token"],"response_types":["code"],'
    '"token_endpoint_auth_method":"none","application_type":"native"}'
)
TOKEN = {"access_token": "at-SECRET-1", "token_type": "Bearer", "expires_in": 3600,
         "refresh_token": "rt-SECRET-1", "scope": "mcp:read"}
SECRETS = ("at-SECRET", "rt-SECRET", "code-SECRET", VERIFIER, "client-SECRET")


def prm(resource: str = SERVER, issuer: str = A) -> bytes:
    return json.dumps({"resource": resource, "authorization_servers": [issuer]}).encode()


def as_metadata(**changes: Any) -> bytes:
    document: dict[str, Any] = {
        "issuer": A,
        "authorization_endpoint": f"{A}/authorize",
        "token_endpoint": f"{A}/token",
        "registration_endpoint": f"{A}/register",
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "authorization_response_iss_parameter_supported": True,
        "token_endpoint_auth_methods_supported": ["none"],
    }
    document.update(changes)
    return json.dumps(document).encode()


def config(**options: Any) -> AuthConfig:
    return AuthConfig("toolnexus", REDIRECT, **options)


def fetch(step: object, method: str, url: str) -> Fetch:
    assert isinstance(step, Fetch), step
    assert (step.method, step.url) == (method, url)
    return step


def expect_get(step: object, url: str) -> None:
    request = fetch(step, "GET", url)
    assert request.headers == [("accept", "application/json")]
    assert request.body == b""


def form(body: bytes) -> dict[str, str]:
    pairs = parse_qsl(body.decode(), keep_blank_values=True, strict_parsing=True)
    assert len({name for name, _ in pairs}) == len(pairs), "a parameter twice"
    return dict(pairs)


def start(header: str = CHALLENGE_401, status: int = 401, **kwargs: Any) -> tuple[AuthFlow, object]:
    kwargs.setdefault("entropy", ENTROPY)
    cfg = kwargs.pop("cfg", config())
    return AuthFlow.start(SERVER, parse_challenge(status, header), cfg, **kwargs)


def to_authorize(flow: AuthFlow, step: object) -> Authorize:
    """PRM, AS metadata and registration answered; the authorization step."""
    expect_get(step, PRM_URL)
    step = flow.on_response(200, {"Content-Type": "application/json"}, prm(), now_ms=NOW)
    expect_get(step, f"{A}/.well-known/oauth-authorization-server")
    step = flow.on_response(200, [("content-type", "application/json")], as_metadata(), now_ms=NOW)
    registration = fetch(step, "POST", f"{A}/register")
    assert registration.headers == [("content-type", "application/json"), ("accept", "application/json")]
    assert registration.body == DCR_BODY.encode()
    step = flow.on_response(201, {}, json.dumps({"client_id": "cid-1", "redirect_uris": [REDIRECT]}).encode(), now_ms=NOW)
    assert isinstance(step, Authorize)
    return step


def full_grant() -> Grant:
    return full_done().grant


def full_done() -> Done:
    flow, step = start()
    authorize = to_authorize(flow, step)
    step = flow.on_redirect(f"?code=code-SECRET&state={authorize.state}&iss={A}")
    fetch(step, "POST", f"{A}/token")
    done = flow.on_response(200, {}, json.dumps(TOKEN).encode(), now_ms=NOW)
    assert isinstance(done, Done)
    return done


# --- a whole flow ---------------------------------------------------------------------------


def test_parse_challenge_reads_the_header() -> None:
    challenge = parse_challenge(403, 'Bearer error="insufficient_scope", scope="mcp:write"')
    assert isinstance(challenge, Challenge)
    assert (challenge.status, challenge.scheme, challenge.scope, challenge.error) == (
        403, "Bearer", "mcp:write", "insufficient_scope")
    assert challenge.resource_metadata is None
    assert challenge.is_insufficient_scope
    assert not parse_challenge(401, CHALLENGE_401).is_insufficient_scope
    assert parse_challenge(401, None).scheme == ""
    assert parse_challenge(401, CHALLENGE_401) == parse_challenge(401, CHALLENGE_401)
    assert hash(parse_challenge(401, CHALLENGE_401)) == hash(parse_challenge(401, CHALLENGE_401))


def test_a_whole_flow_sends_exactly_these_requests() -> None:
    flow, step = start()
    assert repr(flow) == "AuthFlow(issuer=None, authorizations=1)"
    authorize = to_authorize(flow, step)
    assert (flow.issuer, flow.resource, flow.client_id, flow.scope) == (A, SERVER, "cid-1", "mcp:read")

    url = urlsplit(authorize.url)
    assert f"{url.scheme}://{url.netloc}{url.path}" == f"{A}/authorize"
    challenge = base64.urlsafe_b64encode(hashlib.sha256(VERIFIER.encode()).digest()).rstrip(b"=").decode()
    assert form(url.query.encode()) == {
        "response_type": "code",
        "client_id": "cid-1",
        "redirect_uri": REDIRECT,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "state": authorize.state,
        "scope": "mcp:read",
        "resource": SERVER,
    }
    assert authorize.redirect_uri == REDIRECT

    step = flow.on_redirect(f"code=code-SECRET&state={authorize.state}&iss={A}")
    token = fetch(step, "POST", f"{A}/token")
    assert token.headers == [("content-type", "application/x-www-form-urlencoded"), ("accept", "application/json")]
    assert token.header("content-type") == "application/x-www-form-urlencoded"
    assert token.header("authorization") is None
    assert form(token.body) == {
        "grant_type": "authorization_code",
        "code": "code-SECRET",
        "redirect_uri": REDIRECT,
        "code_verifier": VERIFIER,
        "resource": SERVER,
        "client_id": "cid-1",
    }

    done = flow.on_response(200, {"Content-Type": "application/json"}, json.dumps(TOKEN).encode(), now_ms=NOW)
    assert isinstance(done, Done)
    grant = done.grant
    assert grant.access_token == "at-SECRET-1"
    assert grant.authorization == "Bearer at-SECRET-1"
    assert (grant.token_type, grant.refresh_token, grant.has_refresh_token) == ("Bearer", "rt-SECRET-1", True)
    assert grant.expires_at_ms == NOW + 3_600_000
    assert (grant.scope, grant.issuer, grant.resource) == ("mcp:read", A, SERVER)
    assert (grant.token_endpoint, grant.client_id, grant.authorizations) == (f"{A}/token", "cid-1", 1)
    assert not grant.is_expired(NOW) and grant.is_expired(NOW + 3_600_000)
    with pytest.raises(AuthError) as caught:
        flow.on_response(200, {}, b"{}", now_ms=NOW)
    assert caught.value.kind == "out_of_order"


def test_a_grant_is_stored_and_read_back() -> None:
    grant = full_grant()
    text = grant.to_json()
    assert json.loads(text)["version"] == 1
    assert Grant.from_json(text) == grant
    assert Grant.from_json(text.encode()) == grant
    assert Grant.from_json(bytearray(text.encode())) == grant
    with pytest.raises(AuthError) as caught:
        Grant.from_json(text.replace('"version":1', '"version":2'))
    assert (caught.value.kind, caught.value.pointer) == ("invalid_grant", "/version")
    with pytest.raises(AuthError) as caught:
        Grant.from_json("{")
    assert caught.value.kind == "invalid_json"
    with pytest.raises(AuthError) as caught:
        Grant.from_json(text, limits=toolnexus.Limits(max_input_bytes=10))
    assert caught.value.kind == "too_large"


def test_entropy_and_time_come_from_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "urandom", lambda n: ENTROPY[:n])
    monkeypatch.setattr(time, "time", lambda: NOW / 1000)
    flow, step = start(entropy=None)
    authorize = to_authorize(flow, step)
    flow_with_explicit, step2 = start()
    assert authorize.state == to_authorize(flow_with_explicit, step2).state
    fetch(flow.on_redirect(f"code=code-SECRET&state={authorize.state}&iss={A}"), "POST", f"{A}/token")
    done = flow.on_response(200, {}, json.dumps(TOKEN).encode())
    assert isinstance(done, Done)
    assert done.grant.expires_at_ms == NOW + 3_600_000
    assert not done.grant.is_expired() and done.grant.is_expired(NOW + 3_600_000)
    monkeypatch.setattr(time, "time", lambda: NOW / 1000 + 3_600)
    assert done.grant.is_expired()


def test_random_entropy_differs_between_flows() -> None:
    states = set()
    for _ in range(2):
        flow, step = start(entropy=None)
        states.add(to_authorize(flow, step).state)
    assert len(states) == 2


def test_a_confidential_pre_registered_client_authenticates_with_basic() -> None:
    cfg = config(client_id="pre-id", client_secret="client-SECRET", client_issuer=A)
    flow, step = start(cfg=cfg)
    expect_get(step, PRM_URL)
    step = flow.on_response(200, {}, prm(), now_ms=NOW)
    metadata = as_metadata(token_endpoint_auth_methods_supported=["client_secret_basic"])
    authorize = flow.on_response(200, {}, metadata, now_ms=NOW)
    assert isinstance(authorize, Authorize)
    assert flow.client_id == "pre-id"
    token = fetch(flow.on_redirect(f"code=code-SECRET&state={authorize.state}&iss={A}"), "POST", f"{A}/token")
    basic = base64.b64encode(b"pre-id:client-SECRET").decode()
    assert token.header("authorization") == f"Basic {basic}"
    assert "client_secret" not in form(token.body)
    for shown in (repr(token), repr(cfg), repr(flow)):
        assert not any(secret in shown for secret in SECRETS), shown
        assert basic not in shown
    assert "authorization" in repr(token)
    assert cfg.has_client_secret and cfg.client_id == "pre-id" and cfg.client_issuer == A
    assert config().limits == toolnexus.Limits(max_input_bytes=256 * 1024, max_depth=16)
    assert config().max_authorizations == 3 and not config().has_client_secret


# --- step-up and refresh --------------------------------------------------------------------


def test_a_403_insufficient_scope_steps_up_with_the_previous_grant() -> None:
    previous = full_grant()
    header = f'Bearer error="insufficient_scope", scope="mcp:write", resource_metadata="{PRM_URL}"'
    flow, step = start(header, status=403, previous=previous)
    assert flow.authorizations == 2
    expect_get(step, PRM_URL)
    step = flow.on_response(200, {}, prm(), now_ms=NOW)
    expect_get(step, f"{A}/.well-known/oauth-authorization-server")
    authorize = flow.on_response(200, {}, as_metadata(), now_ms=NOW)
    assert isinstance(authorize, Authorize), "the previous client is reused: no registration"
    query = form(urlsplit(authorize.url).query.encode())
    assert query["client_id"] == "cid-1"
    assert set(query["scope"].split()) == {"mcp:read", "mcp:write"}
    token = fetch(flow.on_redirect(f"code=code-SECRET&state={authorize.state}&iss={A}"), "POST", f"{A}/token")
    assert form(token.body)["client_id"] == "cid-1"
    stepped = {**TOKEN, "access_token": "at-SECRET-2", "scope": "mcp:read mcp:write"}
    done = flow.on_response(200, {}, json.dumps(stepped).encode(), now_ms=NOW)
    assert isinstance(done, Done)
    assert (done.grant.authorizations, done.grant.scope) == (2, "mcp:read mcp:write")

    third, _ = start(header, status=403, previous=done.grant)
    assert third.authorizations == 3
    fourth_previous = done.grant
    with pytest.raises(AuthError) as caught:
        start(header, status=403, previous=fourth_previous, cfg=config(max_authorizations=2))
    assert caught.value.kind == "too_many_authorizations"


def test_refresh_sends_the_refresh_token() -> None:
    grant = full_grant()
    flow, step = AuthFlow.refresh(SERVER, grant, config())
    token = fetch(step, "POST", f"{A}/token")
    assert form(token.body) == {
        "grant_type": "refresh_token",
        "refresh_token": "rt-SECRET-1",
        "resource": SERVER,
        "client_id": "cid-1",
    }
    assert "rt-SECRET" not in repr(token)
    answer = {"access_token": "at-SECRET-3", "token_type": "Bearer", "expires_in": 60}
    done = flow.on_response(200, {}, json.dumps(answer).encode(), now_ms=NOW)
    assert isinstance(done, Done)
    assert done.grant.authorization == "Bearer at-SECRET-3"
    assert done.grant.expires_at_ms == NOW + 60_000

    without = Grant.from_json(json.dumps({k: v for k, v in json.loads(grant.to_json()).items() if k != "refresh_token"}))
    assert not without.has_refresh_token and without.refresh_token is None
    with pytest.raises(AuthError) as caught:
        AuthFlow.refresh(SERVER, without, config())
    assert caught.value.kind == "no_refresh_token"
    with pytest.raises(AuthError) as caught:
        AuthFlow.refresh("https://other.example.com/mcp", grant, config())
    assert caught.value.kind == "resource_mismatch"


# --- hostile servers ------------------------------------------------------------------------


def test_metadata_for_another_resource_is_refused() -> None:
    flow, _ = start()
    with pytest.raises(AuthError) as caught:
        flow.on_response(200, {}, prm(resource="https://evil.example.com/mcp"), now_ms=NOW)
    assert (caught.value.kind, caught.value.pointer) == ("resource_mismatch", "/resource")
    assert isinstance(caught.value, toolnexus.Error) and isinstance(caught.value, ValueError)
    with pytest.raises(AuthError) as caught:
        flow.on_response(200, {}, prm(), now_ms=NOW)
    assert caught.value.kind == "out_of_order"


def test_an_authorization_server_naming_another_issuer_is_refused() -> None:
    flow, _ = start()
    flow.on_response(200, {}, prm(), now_ms=NOW)
    with pytest.raises(AuthError) as caught:
        flow.on_response(200, {}, as_metadata(issuer="https://evil.example.com"), now_ms=NOW)
    assert (caught.value.kind, caught.value.pointer) == ("issuer_mismatch", "/issuer")


def test_a_plain_http_endpoint_is_refused() -> None:
    flow, _ = start()
    flow.on_response(200, {}, prm(), now_ms=NOW)
    with pytest.raises(AuthError) as caught:
        flow.on_response(200, {}, as_metadata(token_endpoint="http://auth.example.com/token"), now_ms=NOW)
    assert (caught.value.kind, caught.value.pointer) == ("insecure_endpoint", "/token_endpoint")


def test_a_redirect_is_refused() -> None:
    flow, _ = start()
    with pytest.raises(AuthError) as caught:
        flow.on_response(302, {"Location": "https://evil.example.com/"}, b"", now_ms=NOW)
    assert caught.value.kind == "redirected"


def test_a_document_beyond_the_limits_is_refused() -> None:
    flow, _ = start()
    huge = json.dumps({"resource": SERVER, "authorization_servers": [A], "pad": "x" * 300_000}).encode()
    with pytest.raises(AuthError) as caught:
        flow.on_response(200, {}, huge, now_ms=NOW)
    assert caught.value.kind == "too_large"
    small, _ = start(cfg=config(limits=toolnexus.Limits(max_input_bytes=20)))
    with pytest.raises(AuthError) as caught:
        small.on_response(200, {}, prm(), now_ms=NOW)
    assert caught.value.kind == "too_large"


def test_a_redirect_with_another_state_or_issuer_is_refused() -> None:
    flow, step = start()
    to_authorize(flow, step)
    with pytest.raises(AuthError) as caught:
        flow.on_redirect(f"code=code-SECRET&state=forged&iss={A}")
    assert caught.value.kind == "state_mismatch"
    assert "code-SECRET" not in str(caught.value)
    flow, step = start()
    authorize = to_authorize(flow, step)
    with pytest.raises(AuthError) as caught:
        flow.on_redirect(f"code=code-SECRET&state={authorize.state}&iss=https://evil.example.com")
    assert caught.value.kind == "iss_mismatch"


def test_a_response_that_asks_for_nothing_starts_no_flow() -> None:
    with pytest.raises(AuthError) as caught:
        start(status=200)
    assert caught.value.kind == "not_challenged"
    with pytest.raises(AuthError) as caught:
        start(cfg=AuthConfig("toolnexus", "not a url"))
    assert (caught.value.kind, caught.value.pointer) == ("invalid_config", "/redirect_uri")


# --- errors, reprs, types -------------------------------------------------------------------


def test_auth_errors_have_their_own_kinds_and_pickle() -> None:
    kinds = _native.AUTH_ERROR_KINDS
    assert {"resource_mismatch", "issuer_mismatch", "insecure_endpoint", "redirected", "too_large"} <= set(kinds)
    assert len(set(kinds)) == len(kinds)
    assert AuthError.KIND is None and "AuthError" in toolnexus.__all__
    error = AuthError("the metadata is for another resource", kind="resource_mismatch", pointer="/resource")
    assert str(error) == "resource_mismatch at /resource: the metadata is for another resource"
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is AuthError and (back.kind, back.pointer) == ("resource_mismatch", "/resource")
    assert "parse_challenge" in toolnexus.__all__
    for name in ("Challenge", "AuthConfig", "AuthFlow", "Fetch", "Authorize", "Done", "Grant"):
        assert name in toolnexus.__all__ and getattr(toolnexus, name).__module__ == "toolnexus"


def test_no_repr_shows_a_token_or_a_secret() -> None:
    done = full_done()
    grant = done.grant
    done_repr = repr(done)
    assert done_repr.startswith("Done(grant=Grant(token_type='Bearer'")
    flow, step = AuthFlow.refresh(SERVER, grant, config(client_id="x", client_secret="client-SECRET"))
    shown = [repr(grant), done_repr, repr(step), repr(flow), repr(config(client_id="x", client_secret="client-SECRET"))]
    for text in shown:
        assert not any(secret in text for secret in SECRETS), text
    assert "has_refresh_token=True" in repr(grant)
    assert "client_secret='…'" in shown[-1]


def test_wrong_python_types_raise_type_error() -> None:
    flow, _ = start()
    calls: list[Any] = [
        lambda: flow.on_response(200, "accept: json", b"{}"),  # type: ignore[arg-type]
        lambda: flow.on_response(200, [("accept", 1)], b"{}"),  # type: ignore[list-item]
        lambda: flow.on_response(200, [["accept", "json"]], b"{}"),  # type: ignore[list-item]
        lambda: flow.on_response(200, {1: "x"}, b"{}"),  # type: ignore[arg-type]
        lambda: flow.on_response(200, 5, b"{}"),  # type: ignore[arg-type]
        lambda: flow.on_response(200, {}, "{}"),  # type: ignore[arg-type]
        lambda: flow.on_response("200", {}, b"{}"),  # type: ignore[arg-type]
        lambda: flow.on_redirect(b"code=x"),  # type: ignore[arg-type]
        lambda: parse_challenge("401", None),  # type: ignore[arg-type]
        lambda: parse_challenge(401, 5),  # type: ignore[arg-type]
        lambda: AuthFlow.start(SERVER, CHALLENGE_401, config()),  # type: ignore[arg-type]
        lambda: AuthFlow.start(SERVER, parse_challenge(401, CHALLENGE_401), None),  # type: ignore[arg-type]
        lambda: AuthFlow.start(SERVER, parse_challenge(401, CHALLENGE_401), config(), entropy="x" * 64),  # type: ignore[arg-type]
        lambda: AuthFlow.start(SERVER, parse_challenge(401, CHALLENGE_401), config(), previous="{}"),  # type: ignore[arg-type]
        lambda: AuthFlow.refresh(SERVER, "{}", config()),  # type: ignore[arg-type]
        lambda: Grant.from_json(5),  # type: ignore[arg-type]
        lambda: AuthConfig(5, REDIRECT),  # type: ignore[arg-type]
        lambda: AuthConfig("toolnexus", REDIRECT, limits=5),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(TypeError):
            call()
    # The flow is untouched by arguments it never read.
    expect_get(flow.on_response(200, {}, prm(), now_ms=NOW), f"{A}/.well-known/oauth-authorization-server")


def test_entropy_must_be_64_bytes() -> None:
    with pytest.raises(toolnexus.InvalidValueError):
        start(entropy=bytes(63))
    flow, _ = start(entropy=bytearray(ENTROPY))
    assert flow.authorizations == 1


def test_flows_and_results_are_not_constructed_directly() -> None:
    for cls in (AuthFlow, Fetch, Authorize, Done, Grant, Challenge):
        with pytest.raises(TypeError):
            cls()
