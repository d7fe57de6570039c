"""Authorization driven by the host's HTTP client: ``AuthFlow`` through canned responses, with
every request asserted exactly, step-up, refresh, DPoP proofs, hostile servers, and what a
``repr`` shows."""

from __future__ import annotations

import base64
import hashlib
import importlib
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
    DeviceCode,
    Done,
    Fetch,
    Grant,
    Poll,
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


def to_authorize(flow: AuthFlow, step: object, metadata: bytes | None = None) -> Authorize:
    """PRM, AS metadata (``as_metadata()`` unless given) and registration answered; the
    authorization step."""
    expect_get(step, PRM_URL)
    step = flow.on_response(200, {"Content-Type": "application/json"}, prm(), now_ms=NOW)
    expect_get(step, f"{A}/.well-known/oauth-authorization-server")
    metadata = as_metadata() if metadata is None else metadata
    step = flow.on_response(200, [("content-type", "application/json")], metadata, now_ms=NOW)
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
    for name in ("Challenge", "AuthConfig", "AuthFlow", "Fetch", "Authorize", "Poll", "DeviceCode", "Done", "Grant"):
        assert name in toolnexus.__all__ and getattr(toolnexus, name).__module__ == "toolnexus"


def test_no_repr_shows_a_token_or_a_secret() -> None:
    done = full_done()
    grant = done.grant
    done_repr = repr(done)
    assert done_repr.startswith("Done(grant=Grant(token_type='Bearer'")
    bound = config(client_id="x", client_secret="client-SECRET", client_issuer=A)
    flow, step = AuthFlow.refresh(SERVER, grant, bound)
    shown = [repr(grant), done_repr, repr(step), repr(flow), repr(bound)]
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
        lambda: AuthConfig("toolnexus", REDIRECT, dpop=True),  # type: ignore[arg-type]
        lambda: AuthFlow.refresh(SERVER, full_grant(), config(), entropy="x" * 32),  # type: ignore[arg-type]
        lambda: full_grant().proof("GET", SERVER, jti="x" * 32),  # type: ignore[arg-type]
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
    for cls in (AuthFlow, Fetch, Authorize, Poll, DeviceCode, Done, Grant, Challenge):
        with pytest.raises(TypeError):
            cls()


# --- DPoP (RFC 9449) ------------------------------------------------------------------------

OFFERS_DPOP = as_metadata(dpop_signing_alg_values_supported=["ES256"])
DPOP_TOKEN = {"access_token": "at-SECRET-dpop", "token_type": "DPoP", "expires_in": 3600,
              "refresh_token": "rt-SECRET-dpop", "scope": "mcp:read"}
REDIRECTED_AT = NOW + 5_000


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def jwt(proof: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The header and payload of a DPoP proof, its form checked (and its ES256 signature, when
    the ``cryptography`` package is at hand)."""
    assert isinstance(proof, str)
    parts = proof.split(".")
    assert len(parts) == 3, proof
    header: dict[str, Any] = json.loads(unb64url(parts[0]))
    payload: dict[str, Any] = json.loads(unb64url(parts[1]))
    signature = unb64url(parts[2])
    assert len(signature) == 64, "ES256: r and s, 32 bytes each"
    assert (header["typ"], header["alg"]) == ("dpop+jwt", "ES256")
    jwk = header["jwk"]
    assert sorted(jwk) == ["crv", "kty", "x", "y"], "a public key: no `d`"
    assert (jwk["kty"], jwk["crv"]) == ("EC", "P-256")
    assert len(unb64url(jwk["x"])) == 32 and len(unb64url(jwk["y"])) == 32
    verify_es256(jwk, f"{parts[0]}.{parts[1]}".encode(), signature)
    return header, payload


def verify_es256(jwk: dict[str, str], signed: bytes, signature: bytes) -> None:
    """Checks the signature with ``cryptography`` if the environment has it (no dependency is
    added for it)."""
    try:
        ec: Any = importlib.import_module("cryptography.hazmat.primitives.asymmetric.ec")
        hashes: Any = importlib.import_module("cryptography.hazmat.primitives.hashes")
        utils: Any = importlib.import_module("cryptography.hazmat.primitives.asymmetric.utils")
    except ImportError:
        return
    x, y = (int.from_bytes(unb64url(jwk[c]), "big") for c in ("x", "y"))
    key = ec.EllipticCurvePublicNumbers(x, y, ec.SECP256R1()).public_key()
    der = utils.encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    key.verify(der, signed, ec.ECDSA(hashes.SHA256()))


def dpop_token_request(cfg: AuthConfig | None = None, metadata: bytes = OFFERS_DPOP) -> tuple[AuthFlow, Fetch]:
    """A flow through to its token request, the redirect received at ``REDIRECTED_AT``."""
    flow, step = start(cfg=config() if cfg is None else cfg)
    authorize = to_authorize(flow, step, metadata)
    step = flow.on_redirect(f"code=code-SECRET&state={authorize.state}&iss={A}", now_ms=REDIRECTED_AT)
    return flow, fetch(step, "POST", f"{A}/token")


def dpop_grant() -> Grant:
    flow, _ = dpop_token_request()
    done = flow.on_response(200, {}, json.dumps(DPOP_TOKEN).encode(), now_ms=NOW)
    assert isinstance(done, Done)
    return done.grant


def test_a_server_offering_dpop_gets_a_proved_token_request_and_gives_a_dpop_grant() -> None:
    flow, token = dpop_token_request()
    assert [name for name, _ in token.headers] == ["content-type", "accept", "dpop"]
    assert form(token.body) == {
        "grant_type": "authorization_code",
        "code": "code-SECRET",
        "redirect_uri": REDIRECT,
        "code_verifier": VERIFIER,
        "resource": SERVER,
        "client_id": "cid-1",
    }
    header, payload = jwt(token.header("dpop"))
    assert sorted(payload) == ["htm", "htu", "iat", "jti"], "no ath and no nonce on a token request"
    assert (payload["htm"], payload["htu"]) == ("POST", f"{A}/token")
    assert payload["iat"] == REDIRECTED_AT // 1000, "dated by on_redirect's now_ms"
    assert len(unb64url(payload["jti"])) >= 16
    proof = token.header("dpop")
    assert proof is not None and proof not in repr(token) and "'dpop', '…'" in repr(token)

    done = flow.on_response(200, {}, json.dumps(DPOP_TOKEN).encode(), now_ms=NOW)
    assert isinstance(done, Done)
    grant = done.grant
    assert grant.is_dpop and grant.token_type == "DPoP"
    assert grant.authorization == "DPoP at-SECRET-dpop"
    assert grant.authorization.startswith("DPoP ")
    assert "at-SECRET" not in repr(grant) and "at-SECRET" not in repr(done)

    # The grant proves requests with the key the token request was proved with.
    resource_header, resource_payload = jwt(grant.proof("POST", SERVER, now_ms=NOW))
    assert resource_header["jwk"] == header["jwk"]
    assert sorted(resource_payload) == ["ath", "htm", "htu", "iat", "jti"]
    assert (resource_payload["htm"], resource_payload["htu"]) == ("POST", SERVER)
    assert resource_payload["iat"] == NOW // 1000
    assert resource_payload["ath"] == b64url(hashlib.sha256(b"at-SECRET-dpop").digest())
    assert len(unb64url(resource_payload["jti"])) == 32


def test_a_proof_is_fresh_each_time_and_says_what_it_proves() -> None:
    grant = dpop_grant()
    first, second = grant.proof("GET", SERVER, now_ms=NOW), grant.proof("GET", SERVER, now_ms=NOW)
    assert first != second
    assert jwt(first)[1]["jti"] != jwt(second)[1]["jti"]
    _, payload = jwt(grant.proof("GET", f"{SERVER}?cursor=2#top", now_ms=NOW, jti=bytes(range(16))))
    assert payload["htu"] == SERVER, "htu has no query and no fragment"
    assert payload["jti"] == b64url(bytes(range(16)))
    assert jwt(grant.proof("GET", SERVER, jti=bytearray(64)))[1]["jti"] == b64url(bytes(64))
    # Signing is deterministic (RFC 6979): the same inputs make the same proof.
    assert grant.proof("GET", SERVER, now_ms=NOW, jti=bytes(32)) == grant.proof("GET", SERVER, now_ms=NOW, jti=bytes(32))
    _, payload = jwt(grant.proof("POST", SERVER, now_ms=NOW, nonce="eyJ7S_zG.nonce-1"))
    assert payload["nonce"] == "eyJ7S_zG.nonce-1"
    assert "nonce" not in jwt(grant.proof("POST", SERVER, now_ms=NOW))[1]
    assert jwt(grant.proof("POST", SERVER, nonce="n" * 512))[1]["nonce"] == "n" * 512


def test_a_proof_refuses_hostile_nonces_and_unusable_input() -> None:
    grant = dpop_grant()
    for nonce in ("a\nb", "n" * 513, "", "a b", 'a"b', "a\\b", "é"):
        with pytest.raises(AuthError) as caught:
            grant.proof("POST", SERVER, nonce=nonce)
        assert caught.value.kind == "invalid_dpop", nonce
        if len(nonce) > 512:
            assert nonce not in str(caught.value), "the nonce is not quoted back"
    for method, url, jti in (
        ("post", SERVER, None),
        ("POST", "/mcp", None),
        ("POST", SERVER, bytes(15)),
        ("POST", SERVER, bytes(65)),
    ):
        with pytest.raises(AuthError) as caught:
            grant.proof(method, url, jti=jti)
        assert caught.value.kind == "invalid_dpop", (method, url, jti)


def test_a_bearer_grant_has_no_proof() -> None:
    grant = full_grant()
    assert not grant.is_dpop and grant.authorization.startswith("Bearer ")
    assert grant.proof("POST", SERVER) is None
    assert grant.proof("POST", SERVER, now_ms=NOW, nonce="n", jti=bytes(16)) is None


def test_a_resource_servers_nonce_is_echoed_in_the_next_proof() -> None:
    grant = dpop_grant()
    # The MCP server answered 401 with WWW-Authenticate: DPoP error="use_dpop_nonce" and this
    # DPoP-Nonce header: the request goes again with a proof that carries it.
    challenge = parse_challenge(401, 'DPoP error="use_dpop_nonce", error_description="fresh nonce"')
    assert (challenge.scheme, challenge.error) == ("DPoP", "use_dpop_nonce")
    _, payload = jwt(grant.proof("POST", SERVER, nonce="server-nonce-7"))
    assert payload["nonce"] == "server-nonce-7"
    assert payload["ath"] == b64url(hashlib.sha256(grant.access_token.encode()).digest())


def test_the_token_endpoints_nonce_is_answered_once() -> None:
    flow, token = dpop_token_request()
    asked = json.dumps({"error": "use_dpop_nonce", "error_description": "nonce"}).encode()
    again = fetch(flow.on_response(400, {"DPoP-Nonce": "as-nonce-1"}, asked, now_ms=NOW + 6_000), "POST", f"{A}/token")
    assert again.body == token.body
    _, first = jwt(token.header("dpop"))
    _, payload = jwt(again.header("dpop"))
    assert payload["nonce"] == "as-nonce-1" and payload["jti"] != first["jti"]
    with pytest.raises(AuthError) as caught:
        flow.on_response(400, {"DPoP-Nonce": "as-nonce-2"}, asked, now_ms=NOW + 7_000)
    assert caught.value.kind == "token_refused"


def test_dpop_never_asks_for_a_bearer_token_and_always_proves() -> None:
    cfg = config(dpop="never")
    assert cfg.dpop == "never" and config().dpop == "when-offered"
    assert "dpop='never'" in repr(cfg)
    flow, token = dpop_token_request(cfg)
    assert token.header("dpop") is None
    assert token.headers == [("content-type", "application/x-www-form-urlencoded"), ("accept", "application/json")]
    done = flow.on_response(200, {}, json.dumps(TOKEN).encode(), now_ms=NOW)
    assert isinstance(done, Done)
    assert not done.grant.is_dpop and done.grant.authorization == "Bearer at-SECRET-1"

    # Not offered: a Bearer request under "when-offered", a proved one under "always".
    _, token = dpop_token_request(metadata=as_metadata())
    assert token.header("dpop") is None
    _, token = dpop_token_request(config(dpop="always"), metadata=as_metadata())
    assert jwt(token.header("dpop"))[1]["htu"] == f"{A}/token"
    _, token = dpop_token_request(metadata=as_metadata(dpop_signing_alg_values_supported=["RS256"]))
    assert token.header("dpop") is None, "ES256 is the only algorithm proofs are made with"

    with pytest.raises(toolnexus.InvalidValueError) as refused:
        config(dpop="sometimes")
    assert isinstance(refused.value, ValueError) and "sometimes" in str(refused.value)
    with pytest.raises(toolnexus.InvalidValueError):
        config(dpop="Always")


def test_refreshing_a_dpop_grant_proves_the_request() -> None:
    grant = dpop_grant()
    key = jwt(grant.proof("GET", SERVER))[0]["jwk"]
    flow, step = AuthFlow.refresh(SERVER, grant, config(), now_ms=NOW + 9_000, entropy=bytes(32))
    token = fetch(step, "POST", f"{A}/token")
    assert form(token.body) == {
        "grant_type": "refresh_token",
        "refresh_token": "rt-SECRET-dpop",
        "resource": SERVER,
        "client_id": "cid-1",
    }
    header, payload = jwt(token.header("dpop"))
    assert header["jwk"] == key
    assert (payload["htm"], payload["htu"], payload["iat"]) == ("POST", f"{A}/token", (NOW + 9_000) // 1000)
    assert "ath" not in payload
    # The proof's jti comes from the entropy given.
    _, same = AuthFlow.refresh(SERVER, grant, config(), now_ms=NOW + 9_000, entropy=bytes(32))
    _, other = AuthFlow.refresh(SERVER, grant, config(), now_ms=NOW + 9_000, entropy=bytes([1]) * 32)
    assert isinstance(same, Fetch) and isinstance(other, Fetch)
    assert same.header("dpop") == token.header("dpop") != other.header("dpop")

    answer = {**DPOP_TOKEN, "access_token": "at-SECRET-dpop-2"}
    done = flow.on_response(200, {}, json.dumps(answer).encode(), now_ms=NOW)
    assert isinstance(done, Done)
    refreshed = done.grant
    assert refreshed.is_dpop and refreshed.authorization == "DPoP at-SECRET-dpop-2"
    _, payload = jwt(refreshed.proof("GET", SERVER))
    assert payload["ath"] == b64url(hashlib.sha256(b"at-SECRET-dpop-2").digest())
    assert jwt(refreshed.proof("GET", SERVER))[0]["jwk"] == key

    with pytest.raises(toolnexus.InvalidValueError):
        AuthFlow.refresh(SERVER, grant, config(), entropy=bytes(64))


def test_a_stored_dpop_grant_still_proves() -> None:
    grant = dpop_grant()
    text = grant.to_json()
    back = Grant.from_json(text)
    assert back == grant and back.is_dpop and back.authorization == "DPoP at-SECRET-dpop"
    jti = bytes(range(32))
    assert back.proof("DELETE", SERVER, now_ms=NOW, jti=jti) == grant.proof("DELETE", SERVER, now_ms=NOW, jti=jti)
    _, payload = jwt(back.proof("DELETE", SERVER, now_ms=NOW))
    assert payload["htm"] == "DELETE" and payload["ath"] == b64url(hashlib.sha256(b"at-SECRET-dpop").digest())
    _, step = AuthFlow.refresh(SERVER, back, config())
    assert jwt(fetch(step, "POST", f"{A}/token").header("dpop"))[0]["jwk"] == jwt(grant.proof("GET", SERVER))[0]["jwk"]
    assert not Grant.from_json(full_grant().to_json()).is_dpop


def test_proofs_take_the_time_and_randomness_of_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    grant = dpop_grant()
    drawn: list[int] = []

    def urandom(count: int) -> bytes:
        drawn.append(count)
        return bytes([7]) * count

    monkeypatch.setattr(os, "urandom", urandom)
    monkeypatch.setattr(time, "time", lambda: (NOW + 42_000) / 1000)
    _, payload = jwt(grant.proof("GET", SERVER))
    assert drawn == [32]
    assert payload["jti"] == b64url(bytes([7]) * 32)
    assert payload["iat"] == (NOW + 42_000) // 1000
    _, refresh = AuthFlow.refresh(SERVER, grant, config())
    assert drawn == [32, 32]
    by_clock = fetch(refresh, "POST", f"{A}/token").header("dpop")
    assert jwt(by_clock)[1]["iat"] == (NOW + 42_000) // 1000
    _, given = AuthFlow.refresh(SERVER, grant, config(), now_ms=NOW + 42_000, entropy=bytes([7]) * 32)
    assert isinstance(given, Fetch) and given.header("dpop") == by_clock

    # on_redirect dates the token request's proof with the clock when no now_ms is given.
    flow, step = start()
    authorize = to_authorize(flow, step, OFFERS_DPOP)
    token = fetch(flow.on_redirect(f"code=code-SECRET&state={authorize.state}&iss={A}"), "POST", f"{A}/token")
    assert jwt(token.header("dpop"))[1]["iat"] == (NOW + 42_000) // 1000


# --- grants for machines --------------------------------------------------------------------

CLIENT_KEY_PEM = """-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgonwAeLdCrIpcSy4R
g/VfNpdd61z5sCWDj1nEvXZVYRehRANCAAR/Mo/opqpum8FrPwClOYszWP1vOzab
e4YpwVR5FuPw0ICfZLuezVUyPsKngNuLKahQlDOVI9NTEBDzu0chvUQy
-----END PRIVATE KEY-----"""
JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"
IDP = "https://idp.example.com"


def to_token_request(cfg: AuthConfig, metadata: bytes, url: str = f"{A}/token") -> tuple[AuthFlow, Fetch]:
    """Discovery answered for a grant for machines: the first request after it, a POST."""
    flow, step = start(cfg=cfg)
    expect_get(step, PRM_URL)
    step = flow.on_response(200, {}, prm(), now_ms=NOW)
    expect_get(step, f"{A}/.well-known/oauth-authorization-server")
    step = flow.on_response(200, {}, metadata, now_ms=NOW)
    return flow, fetch(step, "POST", url)


def jwt_part(token: str, index: int) -> dict[str, Any]:
    part = token.split(".")[index]
    decoded: dict[str, Any] = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    return decoded


def test_client_credentials_asks_nobody() -> None:
    cfg = config(client_id="machine-1", client_secret="client-SECRET-1", grant="client_credentials", client_issuer=A)
    assert (cfg.grant, cfg.has_client_key) == ("client_credentials", False)
    metadata = as_metadata(grant_types_supported=["client_credentials"],
                           token_endpoint_auth_methods_supported=["client_secret_basic"])
    flow, request = to_token_request(cfg, metadata)
    basic = base64.b64encode(b"machine-1:client-SECRET-1").decode()
    assert request.header("authorization") == f"Basic {basic}"
    assert form(request.body) == {"grant_type": "client_credentials", "scope": "mcp:read", "resource": SERVER}
    done = flow.on_response(200, {}, json.dumps(TOKEN).encode(), now_ms=NOW)
    assert isinstance(done, Done)
    assert done.grant.authorization == "Bearer at-SECRET-1"
    assert done.grant.obtained_by == "client_credentials"
    assert Grant.from_json(done.grant.to_json()).obtained_by == "client_credentials"
    assert full_grant().obtained_by == "authorization_code"


def test_client_credentials_with_a_client_key_signs_an_assertion() -> None:
    cfg = config(client_id="machine-1", client_key=CLIENT_KEY_PEM, grant="client_credentials", client_issuer=A)
    assert cfg.has_client_key and "BEGIN" not in repr(cfg)
    metadata = as_metadata(grant_types_supported=["client_credentials"],
                           token_endpoint_auth_methods_supported=["private_key_jwt"],
                           token_endpoint_auth_signing_alg_values_supported=["ES256"])
    _, request = to_token_request(cfg, metadata)
    sent = form(request.body)
    assert sent["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    assert jwt_part(sent["client_assertion"], 0) == {"alg": "ES256", "typ": "JWT"}
    claims = jwt_part(sent["client_assertion"], 1)
    assert (claims["iss"], claims["sub"], claims["aud"]) == ("machine-1", "machine-1", A)
    assert claims["exp"] - claims["iat"] == 60 and claims["iat"] == NOW // 1000
    from cryptography.hazmat.primitives.asymmetric import ec, utils
    from cryptography.hazmat.primitives import hashes, serialization

    public = serialization.load_pem_private_key(CLIENT_KEY_PEM.encode(), None).public_key()
    assert isinstance(public, ec.EllipticCurvePublicKey)
    head, body, signature = sent["client_assertion"].split(".")
    raw = base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4))
    der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))


def test_a_workload_jwt_is_the_grant_and_a_refusal_is_final() -> None:
    workload = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3In0.c2lnbmF0dXJl"
    cfg = config(grant="jwt_bearer", assertion=workload, client_issuer=A)
    metadata = as_metadata(grant_types_supported=[JWT_BEARER])
    flow, request = to_token_request(cfg, metadata)
    assert form(request.body) == {"grant_type": JWT_BEARER, "assertion": workload,
                                  "scope": "mcp:read", "resource": SERVER}
    refusal = json.dumps({"error": "invalid_grant", "error_description": f"expired {workload}"})
    with pytest.raises(AuthError) as raised:
        flow.on_response(400, {}, refusal.encode(), now_ms=NOW)
    assert raised.value.kind == "token_refused"
    assert workload not in str(raised.value)
    with pytest.raises(AuthError) as again:
        flow.on_response(200, {}, json.dumps(TOKEN).encode(), now_ms=NOW)
    assert again.value.kind == "out_of_order"


def test_enterprise_exchanges_the_id_token_then_presents_the_grant() -> None:
    cfg = config(client_id="xaa-client", client_secret="client-SECRET-2", grant="enterprise", client_issuer=A,
                 id_token="id-token-SECRET", idp_token_endpoint=f"{IDP}/token", idp_client_id="idp-client")
    assert "id-token-SECRET" not in repr(cfg) and cfg.grant == "enterprise"
    metadata = as_metadata(grant_types_supported=[JWT_BEARER],
                           token_endpoint_auth_methods_supported=["client_secret_basic"])
    flow, exchange = to_token_request(cfg, metadata, f"{IDP}/token")
    assert form(exchange.body) == {
        "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
        "requested_token_type": "urn:ietf:params:oauth:token-type:id-jag",
        "audience": A,
        "resource": SERVER,
        "scope": "mcp:read",
        "subject_token": "id-token-SECRET",
        "subject_token_type": "urn:ietf:params:oauth:token-type:id_token",
        "client_id": "idp-client",
    }
    jag = {"access_token": "id-jag-SECRET", "issued_token_type": "urn:ietf:params:oauth:token-type:id-jag",
           "token_type": "N_A"}
    step = flow.on_response(200, {}, json.dumps(jag).encode(), now_ms=NOW)
    request = fetch(step, "POST", f"{A}/token")
    assert request.header("authorization") == "Basic " + base64.b64encode(b"xaa-client:client-SECRET-2").decode()
    assert form(request.body) == {"grant_type": JWT_BEARER, "assertion": "id-jag-SECRET",
                                  "scope": "mcp:read", "resource": SERVER}
    done = flow.on_response(200, {}, json.dumps(TOKEN).encode(), now_ms=NOW)
    assert isinstance(done, Done)


def test_an_unknown_grant_is_not_a_grant() -> None:
    with pytest.raises(toolnexus.InvalidValueError, match="is not a grant"):
        config(grant="password")


@pytest.mark.parametrize(
    ("options", "pointer", "said"),
    [
        ({"assertion": "a.b.c"}, "/grant/assertion", 'assertion is for grant="jwt_bearer"'),
        ({"grant": "jwt_bearer"}, "/grant/assertion", 'grant="jwt_bearer" needs assertion'),
        ({"grant": "enterprise", "id_token": "t"}, "/client_id",
         'grant="enterprise" needs client_id and idp_token_endpoint'),
        ({"grant": "client_credentials", "idp_client_id": "x"}, "/grant/client_id",
         'idp_client_id is for grant="enterprise"'),
        ({"grant": "client_credentials", "client_id": "c"}, "/client_secret", "needs client_secret or client_key"),
        ({"client_key": "k"}, "/client_key", "client_key needs client_id"),
    ],
)
def test_grant_options_are_checked_at_once(options: dict[str, Any], pointer: str, said: str) -> None:
    # The crate's one rule, with the error the flow itself gives, worded with the keywords.
    with pytest.raises(AuthError, match=said) as refused:
        config(**options)
    assert (refused.value.kind, refused.value.pointer) == ("invalid_config", pointer)


def test_an_unusable_client_key_is_refused_without_showing_it() -> None:
    with pytest.raises(AuthError) as raised:
        config(client_id="c", client_issuer=A,
               client_key="-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----")
    assert raised.value.kind == "invalid_config"
    assert "c2VjcmV0" not in str(raised.value)
    # Options a grant cannot go with are refused when the configuration is made, with the
    # rule every host shares.
    with pytest.raises(AuthError, match='grant="client_credentials" needs client_id'):
        config(grant="client_credentials")


@pytest.mark.parametrize("options", [
    {"client_id": "c", "client_secret": "s3cret"},
    {"client_id": "c", "client_secret": "s3cret", "grant": "client_credentials"},
    {"client_id": "c", "client_key": CLIENT_KEY_PEM, "grant": "client_credentials"},
    {"grant": "jwt_bearer", "assertion": "a.b.c"},
])
def test_confidential_credentials_need_the_server_they_are_bound_to(options: dict[str, Any]) -> None:
    # Without client_issuer they would go to whichever authorization server the MCP server
    # names: the configuration is refused before any flow starts.
    with pytest.raises(AuthError, match="bind it with client_issuer") as refused:
        config(**options)
    assert (refused.value.kind, refused.value.pointer) == ("invalid_config", "/client_issuer")
    assert "s3cret" not in str(refused.value) and "a.b.c" not in str(refused.value)


def test_a_kept_grant_serves_only_the_grant_and_client_that_got_it() -> None:
    person = full_done().grant
    assert config().reuses(person, SERVER) is None
    job = config(client_id="machine-1", client_secret="s", client_issuer=A, grant="client_credentials")
    said = job.reuses(person, SERVER)
    assert said is not None and 'obtained by grant="authorization_code"' in said
    assert 'asks for grant="client_credentials"' in said
    assert "another resource" in (config().reuses(person, "https://elsewhere.example/mcp") or "")


def test_the_policy_decides_what_a_refusal_asks_for() -> None:
    policy = toolnexus.AuthPolicy(max_authorizations=2)
    # No token yet: a flow for this challenge.
    first = policy.decide(401, CHALLENGE_401)
    assert first.action == "authorize" and first.challenge is not None
    assert first.challenge.resource_metadata == PRM_URL
    held = full_done().grant
    policy.holds_new_grant()
    # Sent before the grant came: again with it.
    assert policy.decide(401, "Bearer", sent=None, held=held, now_ms=NOW).action == "resend"
    # The token refused: a refresh, once; then a flow.
    sent = held.authorization
    assert policy.decide(401, "Bearer", sent=sent, held=held, now_ms=NOW).action == "refresh"
    policy.refresh_failed()
    assert policy.decide(401, "Bearer", sent=sent, held=held, now_ms=NOW).action == "authorize"
    # The server's DPoP nonce, once per request.
    nonce = policy.decide(401, 'DPoP error="use_dpop_nonce"', dpop_nonce="n-1", sent=sent, held=held, now_ms=NOW)
    assert (nonce.action, nonce.nonce) == ("retry_with_nonce", "n-1")
    # The cap.
    with pytest.raises(AuthError) as given_up:
        policy.decide(403, 'Bearer error="insufficient_scope", scope="more"', sent=sent, held=held, now_ms=NOW)
    assert given_up.value.kind == "too_many_authorizations"
    assert policy.authorizations == 2
    assert "AuthPolicy(authorizations=2)" == repr(policy)


# --- the device authorization grant (RFC 8628, beyond the MCP specification) ---------------

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
DEVICE_SECRET = "dc-SECRET-0123456789"
OFFERS_DEVICE = as_metadata(
    device_authorization_endpoint=f"{A}/device/auth",
    grant_types_supported=["authorization_code", "refresh_token", DEVICE_GRANT],
)


def to_first_poll(answer: dict[str, Any], metadata: bytes = OFFERS_DEVICE) -> tuple[AuthFlow, Poll]:
    flow, step = start(cfg=config(grant="device_code", client_id="cli"))
    step = flow.on_response(200, {}, prm(), now_ms=NOW)
    step = flow.on_response(200, {}, metadata, now_ms=NOW)
    request = fetch(step, "POST", f"{A}/device/auth")
    assert form(request.body) == {"scope": "mcp:read", "resource": SERVER, "client_id": "cli"}
    step = flow.on_response(200, {"content-type": "application/json"}, json.dumps(answer).encode(), now_ms=NOW)
    assert isinstance(step, Poll), step
    return flow, step


def device_answer(**changes: Any) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "device_code": DEVICE_SECRET,
        "user_code": "WDJB-MJHT",
        "verification_uri": f"{A}/device",
        "verification_uri_complete": f"{A}/device?user_code=WDJB-MJHT",
        "expires_in": 600,
        "interval": 3,
    }
    answer.update(changes)
    return answer


def test_the_device_grant_shows_a_code_then_polls_until_granted() -> None:
    flow, poll = to_first_poll(device_answer())
    assert (poll.attempt, poll.at_ms) == (1, NOW + 3000)
    code = poll.code
    assert isinstance(code, DeviceCode)
    assert (code.user_code, code.verification_uri) == ("WDJB-MJHT", f"{A}/device")
    assert code.verification_uri_complete == code.link == f"{A}/device?user_code=WDJB-MJHT"
    assert code.expires_at_ms == NOW + 600_000
    consent = code.request
    assert consent.kind == "authorization" and consent.url == code.link
    assert "\"WDJB-MJHT\"" in consent.prompt
    request = fetch(poll.request, "POST", f"{A}/token")
    assert form(request.body) == {
        "grant_type": DEVICE_GRANT, "device_code": DEVICE_SECRET, "resource": SERVER, "client_id": "cli",
    }
    assert DEVICE_SECRET not in repr(poll) and DEVICE_SECRET not in repr(flow)
    again = flow.on_response(400, {}, b'{"error":"authorization_pending"}', now_ms=NOW + 3000)
    assert isinstance(again, Poll) and (again.attempt, again.at_ms) == (2, NOW + 6000)
    slower = flow.on_response(400, {}, b'{"error":"slow_down"}', now_ms=NOW + 6000)
    assert isinstance(slower, Poll) and (slower.attempt, slower.at_ms) == (3, NOW + 14000)
    done = flow.on_response(200, {}, json.dumps(TOKEN).encode(), now_ms=NOW + 14000)
    assert isinstance(done, Done)
    assert done.grant.obtained_by == "device_code" and done.grant.access_token == "at-SECRET-1"


def test_the_device_grant_ends_on_a_denial_or_an_expired_code() -> None:
    flow, _ = to_first_poll(device_answer())
    with pytest.raises(AuthError) as caught:
        flow.on_response(400, {}, b'{"error":"access_denied"}', now_ms=NOW + 3000)
    assert (caught.value.kind, caught.value.pointer) == ("authorization_denied", "/error")
    flow, _ = to_first_poll(device_answer())
    with pytest.raises(AuthError) as caught:
        flow.on_response(400, {}, b'{"error":"expired_token"}', now_ms=NOW + 3000)
    assert caught.value.kind == "device_code_expired"
    flow, _ = to_first_poll(device_answer(expires_in=10))
    with pytest.raises(AuthError) as caught:
        flow.on_response(400, {}, b'{"error":"authorization_pending"}', now_ms=NOW + 8000)
    assert (caught.value.kind, caught.value.pointer) == ("device_code_expired", "")
    assert DEVICE_SECRET not in caught.value.message


def test_the_device_grant_refuses_an_unsafe_link_and_a_server_without_it() -> None:
    with pytest.raises(AuthError) as caught:
        to_first_poll(device_answer(verification_uri="http://evil.example/device"))
    assert (caught.value.kind, caught.value.pointer) == ("insecure_endpoint", "/verification_uri")
    with pytest.raises(AuthError) as caught:
        to_first_poll(device_answer(), metadata=as_metadata(grant_types_supported=[DEVICE_GRANT]))
    assert (caught.value.kind, caught.value.pointer) == (
        "grant_not_supported", "/device_authorization_endpoint",
    )
    assert AuthConfig("toolnexus", REDIRECT, grant="device_code").grant == "device_code"
