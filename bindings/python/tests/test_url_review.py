"""``review_url``, ``UrlReview`` and ``UrlFinding``."""

from __future__ import annotations

import pickle
import typing

import pytest

import toolnexus
from toolnexus import UrlFinding, UrlReview


def test_a_plain_https_link_is_ok() -> None:
    review = toolnexus.review_url("https://Example.com/a?b#c")
    assert isinstance(review, UrlReview)
    assert (review.url, review.scheme, review.host, review.host_ascii, review.port) == (
        "https://example.com/a?b#c", "https", "example.com", "example.com", 443
    )
    assert (review.verdict, review.findings) == ("ok", [])
    assert review.to_json() == (
        '{"url":"https://example.com/a?b#c","scheme":"https","host":"example.com",'
        '"hostAscii":"example.com","port":443,"verdict":"ok","findings":[]}'
    )


def test_findings_in_code_order_with_their_severity() -> None:
    review = toolnexus.review_url("http://user@exa\u0430mple.com:8080/x")
    assert [(f.code, f.severity) for f in review.findings] == [
        ("userinfo", "reject"),
        ("not_https", "warn"),
        ("punycode_host", "warn"),
        ("mixed_script_host", "warn"),
    ]
    assert review.verdict == "reject"
    assert (review.host, review.host_ascii, review.port) == ("exa\u0430mple.com", "xn--example-4fg.com", 8080)
    assert all(f.message for f in review.findings)
    assert review.has("userinfo") and not review.has("local_host") and not review.has("no_such_code")


def test_warnings_alone_give_warn() -> None:
    review = toolnexus.review_url("http://example.com/")
    assert (review.verdict, [f.code for f in review.findings]) == ("warn", ["not_https"])


def test_an_unusable_url_is_a_review_not_an_exception() -> None:
    for text in ("", "not a url", "https://exa mple.com/", "https://example.com/\n"):
        review = toolnexus.review_url(text)
        assert (review.url, review.scheme, review.host, review.host_ascii, review.port) == (text, None, None, None, None)
        assert review.verdict == "reject"
        assert [f.code for f in review.findings] == ["invalid_url"]
    javascript = toolnexus.review_url("javascript:alert(1)")
    assert [f.code for f in javascript.findings] == ["scheme_not_allowed"]
    assert (javascript.scheme, javascript.host) == ("javascript", None)


def test_to_dict_is_the_cores_object() -> None:
    review = toolnexus.review_url("http://127.0.0.1/")
    as_dict = review.to_dict()
    assert list(as_dict) == ["url", "scheme", "host", "hostAscii", "port", "verdict", "findings"]
    assert as_dict["findings"] == [f.to_dict() for f in review.findings]
    assert toolnexus.to_json(as_dict) == review.to_json()
    assert list(toolnexus.review_url("nope").to_dict()) == ["url", "verdict", "findings"]


def test_url_review_is_a_frozen_value() -> None:
    review = toolnexus.review_url("http://example.com/")
    assert review == toolnexus.review_url("http://example.com/")
    assert hash(review) == hash(toolnexus.review_url("http://example.com/"))
    assert review != toolnexus.review_url("https://example.com/")
    assert repr(review) == "UrlReview(url='http://example.com/', verdict='warn', findings=['not_https'])"
    assert type(review).__module__ == "toolnexus"
    with pytest.raises(AttributeError):
        review.url = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        UrlReview()


def test_url_finding_is_a_frozen_value_whose_severity_follows_its_code() -> None:
    finding = UrlFinding("not_https", "plain http")
    assert (finding.code, finding.severity, finding.message) == ("not_https", "warn", "plain http")
    assert finding.to_dict() == {"code": "not_https", "severity": "warn", "message": "plain http"}
    assert finding == UrlFinding("not_https", "plain http") and hash(finding) == hash(UrlFinding("not_https", "plain http"))
    assert pickle.loads(pickle.dumps(finding)) == finding
    assert repr(finding) == "UrlFinding(code='not_https', severity='warn', message='plain http')"
    assert UrlFinding("userinfo", "m").severity == "reject"
    assert len(UrlFinding.CODES) == 8
    assert {UrlFinding(code, "m").severity for code in UrlFinding.CODES} == set(typing.get_args(toolnexus.Severity))
    with pytest.raises(toolnexus.InvalidValueError):
        UrlFinding("no_such_code", "m")


def test_verdicts_are_the_literal() -> None:
    verdicts = {toolnexus.review_url(url).verdict for url in ("https://a.example/", "http://a.example/", "")}
    assert verdicts == set(typing.get_args(toolnexus.Verdict))


def test_review_url_takes_a_str() -> None:
    with pytest.raises(TypeError):
        toolnexus.review_url(b"https://example.com/")  # type: ignore[arg-type]
    with pytest.raises(toolnexus.LoneSurrogateError):
        toolnexus.review_url("https://example.com/\udc00")
