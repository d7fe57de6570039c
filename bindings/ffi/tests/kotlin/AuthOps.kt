// The suite's `auth_flow` operation through the Kotlin API, as conformance/src/ops/auth.rs runs
// it: one AuthFlow, begun with startAuthFlow from the case's challenge or with refreshAuthFlow
// (refreshAuthFlowUntimed) from a stored grant, each Fetch matched against the script and answered
// from it, each Authorize answered with the script's redirect.
//
// The outcome is the grant ({"grant": <Grant.toJson()>}), the authorization still waiting
// ({"authorize": {"url", "state", "redirectUri", "consent"}}, the consent Request but its id) or
// the AuthException the flow threw. A script that does not match what the flow does is a failure
// of the case (CaseMismatch), and so is a secret found in an error's message or in a Fetch's
// toString(), and a message of 1,000 characters or more.

import dev.toolnexus.*
import java.math.BigDecimal
import java.net.URLDecoder
import java.util.Base64

/** The flow did not do what the case's script says. */
class CaseMismatch(message: String) : Exception(message)

/** Form members whose values act for whoever holds them. */
private val SECRET_MEMBERS = setOf(
    "code", "device_code", "code_verifier", "client_secret", "client_assertion", "assertion", "subject_token", "refresh_token",
)

/** Secrets the runner collects shorter than this are not looked for; those the case lists are. */
private const val MIN_AUTO_SECRET = 8

/** An error's message has fewer characters than this, whatever the server sent. */
private const val MAX_MESSAGE_CHARS = 1000

private val CONFIG_SECRETS = listOf("clientSecret", "assertion", "idToken", "idpClientSecret")

private val CONFIG_MEMBERS = setOf(
    "clientName", "redirectUri", "clientId", "clientSecret", "clientIssuer", "clientMetadataUrl",
    "maxAuthorizations", "dpop", "grant", "clientKey", "assertion", "idToken", "idpTokenEndpoint",
    "idpClientId", "idpClientSecret",
)

@Suppress("UNCHECKED_CAST")
private fun Any?.members(what: String): Map<String, Any?> =
    this as? Map<String, Any?> ?: throw CaseMismatch("$what is not an object")

private fun only(obj: Map<String, Any?>, known: Set<String>, what: String) {
    val unknown = obj.keys - known
    if (unknown.isNotEmpty()) throw CaseMismatch("$what has unknown members ${unknown.sorted()}")
}

private fun entropy(value: Any?, size: Int): ByteArray {
    if (value == null) return ByteArray(size) { it.toByte() }
    val hex = value as String
    val raw = ByteArray(hex.length / 2) { hex.substring(2 * it, 2 * it + 2).toInt(16).toByte() }
    if (raw.size != size) throw CaseMismatch("entropy is $size bytes")
    return raw
}

private fun dpopUse(name: String): DpopUse = when (name) {
    "when-offered" -> DpopUse.WHEN_OFFERED
    "always" -> DpopUse.ALWAYS
    "never" -> DpopUse.NEVER
    else -> throw CaseMismatch("unknown DPoP use $name")
}

private fun grantKind(name: String): GrantKind =
    GrantKind.entries.firstOrNull { it.asStr() == name } ?: throw CaseMismatch("unknown grant $name")

private fun config(given: Map<String, Any?>, secrets: MutableList<String>): AuthConfig {
    only(given, CONFIG_MEMBERS, "`config`")
    CONFIG_SECRETS.mapNotNull { given[it] as String? }.filter { it.length >= MIN_AUTO_SECRET }.forEach { secrets += it }
    val text = { key: String -> given[key] as String? }
    return AuthConfig(
        clientName = text("clientName") ?: "toolnexus",
        redirectUri = given["redirectUri"] as String,
        clientId = text("clientId"),
        clientSecret = text("clientSecret"),
        clientIssuer = text("clientIssuer"),
        clientMetadataUrl = text("clientMetadataUrl"),
        maxAuthorizations = (given["maxAuthorizations"] as JsonNumber?)?.toInt()?.toUInt() ?: 3u,
        dpop = text("dpop")?.let(::dpopUse),
        grant = text("grant")?.let(::grantKind),
        clientKeyPem = text("clientKey"),
        assertion = text("assertion"),
        idToken = text("idToken"),
        idpTokenEndpoint = text("idpTokenEndpoint"),
        idpClientId = text("idpClientId"),
        idpClientSecret = text("idpClientSecret"),
    )
}

/** `got` holds what `want` says: objects the members listed (null: absent), arrays and scalars equal (numbers by value). */
private fun fits(want: Any?, got: Any?, present: Boolean, at: String) {
    if (want == null) {
        if (present) throw CaseMismatch("at '$at' expected nothing, got ${toJson(got)}")
        return
    }
    if (!present) throw CaseMismatch("at '$at' expected ${toJson(want)}, got nothing")
    when (want) {
        is Map<*, *> -> {
            val obj = got as? Map<*, *> ?: throw CaseMismatch("at '$at' expected an object, got ${toJson(got)}")
            for ((key, member) in want) fits(member, obj[key], obj.containsKey(key), "$at/$key")
        }
        is List<*> -> {
            val list = got as? List<*>
            if (list == null || list.size != want.size) throw CaseMismatch("at '$at' expected ${toJson(want)}, got ${toJson(got)}")
            want.forEachIndexed { i, w -> fits(w, list[i], true, "$at/$i") }
        }
        is JsonNumber -> {
            val same = got is JsonNumber && BigDecimal(want.spelling).compareTo(BigDecimal(got.spelling)) == 0
            if (!same) throw CaseMismatch("at '$at' expected ${toJson(want)}, got ${toJson(got)}")
        }
        else -> if (want != got) throw CaseMismatch("at '$at' expected ${toJson(want)}, got ${toJson(got)}")
    }
}

private fun fitsJwt(want: Map<String, Any?>, jwt: String) {
    only(want, setOf("header", "claims"), "`jwt`")
    val parts = jwt.split(".")
    if (parts.size != 3) throw CaseMismatch("'$jwt' is not a JWT")
    for ((name, part) in listOf("header" to parts[0], "claims" to parts[1])) {
        if (!want.containsKey(name)) continue
        try {
            fits(want[name], parseJson(String(Base64.getUrlDecoder().decode(part), Charsets.UTF_8)), true, "")
        } catch (e: CaseMismatch) {
            throw CaseMismatch("the JWT's $name: ${e.message}")
        }
    }
}

private fun fitsMember(want: Any?, got: List<String>) {
    if (want == null) {
        if (got.isNotEmpty()) throw CaseMismatch("expected none, got $got")
        return
    }
    if (got.size != 1) throw CaseMismatch("expected one value, got $got")
    when {
        want is String -> if (want != got[0]) throw CaseMismatch("expected '$want', got '${got[0]}'")
        want is Map<*, *> && want.keys == setOf("jwt") -> fitsJwt(want["jwt"].members("`jwt`"), got[0])
        else -> throw CaseMismatch("a member is expected as null, a string or {\"jwt\": ...}")
    }
}

/** An exact list of pairs, or an object of the members listed. */
private fun fitsMembers(want: Any?, got: List<Pair<String, String>>, fold: Boolean) {
    if (want is List<*>) {
        if (want.size != got.size) throw CaseMismatch("expected ${want.size} pairs, got $got")
        want.zip(got).forEach { (pair, actual) ->
            val p = pair as? List<*>
            if (p == null || p.size != 2) throw CaseMismatch("each pair is [name, value]")
            if (p[0] != actual.first) throw CaseMismatch("expected '${p[0]}', got '${actual.first}' in $got")
            try {
                fitsMember(p[1], listOf(actual.second))
            } catch (e: CaseMismatch) {
                throw CaseMismatch("${actual.first}: ${e.message}")
            }
        }
        return
    }
    for ((name, member) in want.members("the members")) {
        val values = got.filter { (n, _) -> if (fold) n.equals(name, ignoreCase = true) else n == name }.map { it.second }
        try {
            fitsMember(member, values)
        } catch (e: CaseMismatch) {
            throw CaseMismatch("$name: ${e.message}")
        }
    }
}

/** A query or form body as its pairs, blank values kept, as `parse_qsl` reads it. */
private fun pairs(query: String): List<Pair<String, String>> = query.split("&", ";").filter { it.isNotEmpty() }.map {
    val name = it.substringBefore("=")
    val value = if (it.contains("=")) it.substringAfter("=") else ""
    URLDecoder.decode(name, Charsets.UTF_8) to URLDecoder.decode(value, Charsets.UTF_8)
}

private fun form(fetch: Fetch): List<Pair<String, String>>? {
    val kind = fetch.header("content-type") ?: ""
    if (!kind.startsWith("application/x-www-form-urlencoded")) return null
    return pairs(String(fetch.body(), Charsets.UTF_8))
}

private fun Fetch.headerPairs(): List<Pair<String, String>> = headers().map { it.name to it.value }

private fun fitsRequest(fetch: Fetch, want: Map<String, Any?>) {
    only(want, setOf("method", "url", "headers", "form", "json", "body"), "`request`")
    val shown = "${fetch.method()} ${fetch.url()}"
    if (want.containsKey("method") && want["method"] != fetch.method()) {
        throw CaseMismatch("expected a ${want["method"]} request, the flow asks for $shown")
    }
    if (want["url"] != fetch.url()) throw CaseMismatch("expected a request to ${want["url"]}, the flow asks for $shown")
    try {
        if (want.containsKey("headers")) fitsMembers(want["headers"], fetch.headerPairs(), fold = true)
        if (want.containsKey("form")) fitsMembers(want["form"], form(fetch) ?: throw CaseMismatch("the body is not a form"), fold = false)
        if (want.containsKey("body") && !(want["body"] as String).toByteArray(Charsets.UTF_8).contentEquals(fetch.body())) {
            throw CaseMismatch("expected the body '${want["body"]}', got '${String(fetch.body(), Charsets.UTF_8)}'")
        }
        if (want.containsKey("json")) fits(want["json"], parseJson(String(fetch.body(), Charsets.UTF_8)), true, "")
    } catch (e: CaseMismatch) {
        throw CaseMismatch("$shown: ${e.message}")
    }
}

private fun fitsAuthorize(url: String, want: Map<String, Any?>) {
    only(want, setOf("url", "endpoint", "query"), "`authorize`")
    if (want.containsKey("url") && want["url"] != url) throw CaseMismatch("expected ${want["url"]}, got $url")
    val endpoint = url.substringBefore("?")
    val query = if (url.contains("?")) url.substringAfter("?") else ""
    if (want.containsKey("endpoint") && want["endpoint"] != endpoint) throw CaseMismatch("expected the endpoint ${want["endpoint"]}, got $url")
    if (want.containsKey("query")) fitsMembers(want["query"], pairs(query), fold = false)
}

private fun hiddenInToString(fetch: Fetch, secrets: List<String>) {
    val printed = fetch.toString()
    val own = fetch.headerPairs().filter { (n, _) -> n.lowercase() in setOf("authorization", "dpop") }.map { it.second } +
        (form(fetch) ?: emptyList()).filter { (n, _) -> n in SECRET_MEMBERS }.map { it.second }
    for (secret in own.filter { it.length >= MIN_AUTO_SECRET } + secrets) {
        if (secret in printed) throw CaseMismatch("the request's toString() shows the secret '$secret': $printed")
    }
}

private class Response(val status: UShort, val headers: List<HttpHeader>, val body: ByteArray)

private fun response(given: Any?): Response {
    val obj = given as? Map<*, *> ?: throw CaseMismatch("a request step needs its `response` object")
    @Suppress("UNCHECKED_CAST")
    only(obj as Map<String, Any?>, setOf("status", "headers", "body", "text"), "the response")
    if (obj.containsKey("body") && obj.containsKey("text")) throw CaseMismatch("give `body` or `text`, not both")
    val body = if (obj.containsKey("body")) toJson(obj["body"]) else (obj["text"] as String? ?: "")
    val headers = (obj["headers"] as Map<*, *>? ?: emptyMap<String, String>()).map { (n, v) -> HttpHeader(n as String, v as String) }
    return Response(((obj["status"] as JsonNumber?)?.toInt() ?: 200).toUShort(), headers, body.toByteArray(Charsets.UTF_8))
}

private fun issued(body: ByteArray, secrets: MutableList<String>) {
    val doc = try {
        parseJson(String(body, Charsets.UTF_8)) as? Map<*, *>
    } catch (e: RuntimeException) {
        null // not JSON: nothing issued
    } ?: return
    for (key in listOf("access_token", "refresh_token", "id_token", "client_secret")) {
        val token = doc[key] as? String ?: continue
        if (token.length >= MIN_AUTO_SECRET) secrets += token
    }
}

private fun shown(error: AuthException, secrets: List<String>): AuthException {
    val message = when (error) {
        is AuthException.Failed -> error.detail
        is AuthException.Invalid -> error.detail
    }
    if (message.length >= MAX_MESSAGE_CHARS) throw CaseMismatch("the error's message is long: $message")
    for (secret in secrets) {
        if (secret in message) throw CaseMismatch("the error's message shows the secret '$secret': $message")
    }
    return error
}

private fun describe(step: AuthStep): String = when (step) {
    is AuthStep.Fetch -> "a request, ${step.request.method()} ${step.request.url()}"
    is AuthStep.Authorize -> "an authorization, ${step.authorization.url}"
    is AuthStep.Poll -> "a poll, ${step.request.method()} ${step.request.url()}"
    is AuthStep.Done -> "its grant"
}

/** Checks a poll of the device grant against the step's `poll`: every member required, compared exactly. */
private fun fitsPoll(poll: AuthStep.Poll, want: Map<String, Any?>) {
    val members = listOf("at", "attempt", "userCode", "verificationUri", "verificationUriComplete", "expiresAt")
    only(want, members.toSet(), "`poll`")
    val got: Map<String, Any?> = mapOf(
        "at" to poll.atMs.toString(),
        "attempt" to poll.attempt.toString(),
        "userCode" to poll.code.userCode,
        "verificationUri" to poll.code.verificationUri,
        "verificationUriComplete" to poll.code.verificationUriComplete,
        "expiresAt" to poll.code.expiresAtMs.toString(),
    )
    for (member in members) {
        if (!want.containsKey(member)) throw CaseMismatch("the poll: `$member` is missing")
        val expected = want[member].let { if (it is JsonNumber) it.spelling else it }
        if (expected != got[member]) throw CaseMismatch("the poll: `$member` is ${got[member]}, not $expected")
    }
}

private fun begin(script: Map<String, Any?>, config: AuthConfig, secrets: MutableList<String>): AuthBegun {
    val server = script["server"] as String
    val now = (script["now"] as JsonNumber?)?.toULong() ?: 0uL
    if (script.containsKey("challenge") == script.containsKey("refresh")) throw CaseMismatch("give exactly one of `challenge` and `refresh`")
    if (script.containsKey("challenge")) {
        val challenge = script["challenge"].members("`challenge`")
        only(challenge, setOf("status", "wwwAuthenticate"), "`challenge`")
        val previous = script["previous"]?.let { Grant.fromJson(toJson(it)) }
        return startAuthFlow(
            server,
            parseChallenge((challenge["status"] as JsonNumber).toInt().toUShort(), challenge["wwwAuthenticate"] as String?),
            config,
            entropy(script["entropy"], 64),
            previous,
        )
    }
    val refresh = script["refresh"].members("`refresh`")
    only(refresh, setOf("grant", "untimed", "entropy"), "`refresh`")
    if (script.containsKey("entropy") || script.containsKey("previous")) {
        throw CaseMismatch("a refresh takes its entropy in `refresh`, and no `previous`")
    }
    val grant = Grant.fromJson(toJson(refresh["grant"]))
    val stored = parseJson(grant.toJson()).members("the grant")
    listOf("access_token", "refresh_token").mapNotNull { stored[it] as String? }.filter { it.length >= MIN_AUTO_SECRET }.forEach { secrets += it }
    if (refresh["untimed"] == true) return refreshAuthFlowUntimed(server, grant, config)
    return refreshAuthFlow(server, grant, config, entropy(refresh["entropy"], 32), now)
}

/** Runs one step: the next thing the flow does, or its error when the step is the last. */
private fun step(flow: AuthFlow, next: AuthStep, step: Map<String, Any?>, at: ULong, secrets: MutableList<String>, last: Boolean): AuthStep {
    val attempt = { run: () -> AuthStep ->
        try {
            run()
        } catch (error: AuthException) {
            if (!last) throw CaseMismatch("the flow failed, steps remain: $error")
            throw shown(error, secrets)
        }
    }
    if (step.containsKey("request")) {
        only(step, setOf("poll", "request", "response", "now"), "a request step")
        val fetch = when {
            next is AuthStep.Fetch && !step.containsKey("poll") -> next.request
            next is AuthStep.Poll && step.containsKey("poll") -> {
                fitsPoll(next, step["poll"].members("`poll`"))
                next.request
            }
            else -> throw CaseMismatch("the flow gives ${describe(next)}")
        }
        fitsRequest(fetch, step["request"].members("`request`"))
        hiddenInToString(fetch, secrets)
        val response = response(step["response"])
        (form(fetch) ?: emptyList()).filter { (n, v) -> n in SECRET_MEMBERS && v.length >= MIN_AUTO_SECRET }.forEach { secrets += it.second }
        issued(response.body, secrets)
        return attempt { flow.onResponse(response.status, response.headers, response.body, at) }
    }
    if (step.containsKey("redirect")) {
        only(step, setOf("authorize", "redirect", "now"), "a redirect step")
        val authorization = (next as? AuthStep.Authorize ?: throw CaseMismatch("the flow gives ${describe(next)}")).authorization
        step["authorize"]?.let { fitsAuthorize(authorization.url, it.members("`authorize`")) }
        val query = (step["redirect"] as String).replace("{state}", authorization.state)
        pairs(query).filter { (n, v) -> n == "code" && v.length >= MIN_AUTO_SECRET }.forEach { secrets += it.second }
        return attempt { flow.onRedirect(query, at) }
    }
    throw CaseMismatch("a step has neither `request` nor `redirect`")
}

private fun authFlow(input: String): String {
    val script = parseJson(input).members("the script")
    only(script, setOf("server", "challenge", "previous", "refresh", "config", "entropy", "now", "secrets", "steps"), "the script")
    @Suppress("UNCHECKED_CAST")
    val secrets = (script["secrets"] as List<String>? ?: emptyList()).toMutableList()
    val now = (script["now"] as JsonNumber?)?.toULong() ?: 0uL
    val steps = script["steps"] as List<*>? ?: emptyList<Any?>()
    val begun = try {
        begin(script, config(script["config"].members("`config`"), secrets), secrets)
    } catch (error: AuthException) {
        if (steps.isNotEmpty()) throw CaseMismatch("the flow failed to start, steps remain: $error")
        throw shown(error, secrets)
    }
    var next = begun.next
    steps.forEachIndexed { i, s ->
        val given = s.members("a step")
        val at = (given["now"] as JsonNumber?)?.toULong() ?: now
        next = try {
            step(begun.flow, next, given, at, secrets, last = i + 1 == steps.size)
        } catch (e: CaseMismatch) {
            throw CaseMismatch("step $i: ${e.message}")
        }
    }
    return when (val last = next) {
        is AuthStep.Done -> "{\"grant\":${last.grant.toJson()}}"
        is AuthStep.Authorize -> {
            val a = last.authorization
            val consent = linkedMapOf("kind" to a.request.kind, "prompt" to a.request.prompt, "url" to a.request.url)
            toJson(linkedMapOf("authorize" to linkedMapOf("url" to a.url, "state" to a.state, "redirectUri" to a.redirectUri, "consent" to consent)))
        }
        is AuthStep.Fetch -> throw CaseMismatch("the flow asks for ${last.request.method()} ${last.request.url()} after the last step")
        is AuthStep.Poll -> throw CaseMismatch("the flow asks for ${last.request.method()} ${last.request.url()} after the last step")
    }
}

/** The authorization flow. */
val AUTH_OPS: Map<String, Op> = mapOf(
    "auth_flow" to textOp { _, input, _ -> authFlow(input) },
)
