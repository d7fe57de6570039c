// The suite's `auth_flow` operation through the Swift API, as conformance/src/ops/auth.rs runs it:
// one AuthFlow, begun with startAuthFlow from the case's challenge or with refreshAuthFlow
// (refreshAuthFlowUntimed) from a stored grant, each Fetch matched against the script and answered
// from it, each Authorize answered with the script's redirect.
//
// The outcome is the grant ({"grant": <Grant.toJson()>}), the authorization still waiting
// ({"authorize": {"url", "state", "redirectUri", "consent"}}, the consent Request but its id) or
// the AuthError the flow threw. A script that does not match what the flow does is a failure of
// the case (a thrown BrokenCase), and so is a secret found in an error's message or in a Fetch's
// description, and a message of 1,000 characters or more.

import Foundation
import JSONText
import Toolnexus

/// Form members whose values act for whoever holds them.
private let secretMembers: Set<String> = [
    "code", "device_code", "code_verifier", "client_secret", "client_assertion", "assertion", "subject_token", "refresh_token",
]

/// Secrets the runner collects shorter than this are not looked for; those the case lists are.
private let minAutoSecret = 8

/// An error's message has fewer characters than this, whatever the server sent.
private let maxMessageChars = 1000

private let configSecrets = ["clientSecret", "assertion", "idToken", "idpClientSecret"]

private let configMembers: Set<String> = [
    "clientName", "redirectUri", "clientId", "clientSecret", "clientIssuer", "clientMetadataUrl",
    "maxAuthorizations", "dpop", "grant", "clientKey", "assertion", "idToken", "idpTokenEndpoint",
    "idpClientId", "idpClientSecret",
]

private func mismatch(_ why: String) -> BrokenCase { BrokenCase(why) }

private func only(_ obj: JSON, _ known: Set<String>, _ what: String) throws {
    guard let members = obj.members else { throw mismatch("\(what) is not an object") }
    let unknown = Set(members.map(\.key)).subtracting(known)
    if !unknown.isEmpty { throw mismatch("\(what) has unknown members \(unknown.sorted())") }
}

private func entropy(_ value: JSON?, _ size: Int) throws -> Data {
    guard let hex = value?.stringValue else { return Data((0..<size).map { UInt8($0) }) }
    let digits = Array(hex.utf8)
    var raw = Data()
    var at = 0
    while at + 1 < digits.count {
        guard let byte = UInt8(String(decoding: digits[at...at + 1], as: UTF8.self), radix: 16) else {
            throw mismatch("entropy is hex")
        }
        raw.append(byte)
        at += 2
    }
    if raw.count != size { throw mismatch("entropy is \(size) bytes") }
    return raw
}

private func dpopUse(_ name: String) throws -> DpopUse {
    switch name {
    case "when-offered": return .whenOffered
    case "always": return .always
    case "never": return .never
    default: throw mismatch("unknown DPoP use \(name)")
    }
}

private func grantKind(_ name: String) throws -> GrantKind {
    let kinds: [GrantKind] = [.authorizationCode, .clientCredentials, .jwtBearer, .enterprise, .deviceCode]
    guard let kind = kinds.first(where: { $0.asStr() == name }) else { throw mismatch("unknown grant \(name)") }
    return kind
}

private func config(_ given: JSON, _ secrets: inout [String]) throws -> AuthConfig {
    try only(given, configMembers, "`config`")
    for key in configSecrets {
        if let secret = given[key]?.stringValue, secret.count >= minAutoSecret { secrets.append(secret) }
    }
    let text = { (key: String) in given[key]?.stringValue }
    guard let redirectUri = text("redirectUri") else { throw mismatch("`config.redirectUri` is required") }
    return try AuthConfig(
        clientName: text("clientName") ?? "toolnexus",
        redirectUri: redirectUri,
        clientId: text("clientId"),
        clientSecret: text("clientSecret"),
        clientIssuer: text("clientIssuer"),
        clientMetadataUrl: text("clientMetadataUrl"),
        maxAuthorizations: given["maxAuthorizations"]?.uint64Value.map { UInt32($0) } ?? 3,
        dpop: try text("dpop").map(dpopUse),
        grant: try text("grant").map(grantKind),
        clientKeyPem: text("clientKey"),
        assertion: text("assertion"),
        idToken: text("idToken"),
        idpTokenEndpoint: text("idpTokenEndpoint"),
        idpClientId: text("idpClientId"),
        idpClientSecret: text("idpClientSecret")
    )
}

/// `got` holds what `want` says: objects the members listed (null: absent), arrays and scalars
/// equal (numbers by value).
private func fits(_ want: JSON, _ got: JSON?, _ at: String) throws {
    if want == .null {
        if let got { throw mismatch("at '\(at)' expected nothing, got \(got.text)") }
        return
    }
    guard let got else { throw mismatch("at '\(at)' expected \(want.text), got nothing") }
    switch want {
    case .object(let members):
        guard case .object = got else { throw mismatch("at '\(at)' expected an object, got \(got.text)") }
        for member in members { try fits(member.value, got[member.key], "\(at)/\(member.key)") }
    case .array(let items):
        guard case .array(let gotItems) = got, gotItems.count == items.count else {
            throw mismatch("at '\(at)' expected \(want.text), got \(got.text)")
        }
        for (i, item) in items.enumerated() { try fits(item, gotItems[i], "\(at)/\(i)") }
    case .number(let spelling):
        guard case .number(let other) = got, let a = Decimal(string: spelling), let b = Decimal(string: other), a == b else {
            throw mismatch("at '\(at)' expected \(want.text), got \(got.text)")
        }
    default:
        if want != got { throw mismatch("at '\(at)' expected \(want.text), got \(got.text)") }
    }
}

private func base64url(_ part: Substring) -> Data? {
    var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    text += String(repeating: "=", count: (4 - text.count % 4) % 4)
    return Data(base64Encoded: text)
}

private func fitsJwt(_ want: JSON, _ jwt: String) throws {
    try only(want, ["header", "claims"], "`jwt`")
    let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { throw mismatch("'\(jwt)' is not a JWT") }
    for (name, part) in [("header", parts[0]), ("claims", parts[1])] {
        guard let wanted = want[name] else { continue }
        guard let raw = base64url(part), let doc = try? JSON.parse(String(decoding: raw, as: UTF8.self)) else {
            throw mismatch("the JWT's \(name) is not base64url JSON")
        }
        do { try fits(wanted, doc, "") } catch let e as BrokenCase { throw mismatch("the JWT's \(name): \(e)") }
    }
}

private func fitsMember(_ want: JSON, _ got: [String]) throws {
    if want == .null {
        if !got.isEmpty { throw mismatch("expected none, got \(got)") }
        return
    }
    guard got.count == 1 else { throw mismatch("expected one value, got \(got)") }
    if let text = want.stringValue {
        if text != got[0] { throw mismatch("expected '\(text)', got '\(got[0])'") }
    } else if let members = want.members, members.map(\.key) == ["jwt"], let jwt = want["jwt"] {
        try fitsJwt(jwt, got[0])
    } else {
        throw mismatch("a member is expected as null, a string or {\"jwt\": ...}")
    }
}

/// An exact list of pairs, or an object of the members listed.
private func fitsMembers(_ want: JSON, _ got: [(String, String)], fold: Bool) throws {
    if let pairs = want.arrayValue {
        guard pairs.count == got.count else { throw mismatch("expected \(pairs.count) pairs, got \(got)") }
        for (pair, actual) in zip(pairs, got) {
            guard let p = pair.arrayValue, p.count == 2 else { throw mismatch("each pair is [name, value]") }
            if p[0].stringValue != actual.0 { throw mismatch("expected \(p[0].text), got '\(actual.0)' in \(got)") }
            do { try fitsMember(p[1], [actual.1]) } catch let e as BrokenCase { throw mismatch("\(actual.0): \(e)") }
        }
        return
    }
    guard let members = want.members else { throw mismatch("members are a list of pairs or an object") }
    for member in members {
        let values = got.filter { fold ? $0.0.lowercased() == member.key.lowercased() : $0.0 == member.key }.map(\.1)
        do { try fitsMember(member.value, values) } catch let e as BrokenCase { throw mismatch("\(member.key): \(e)") }
    }
}

/// `application/x-www-form-urlencoded` text decoded: `+` is a space, then percent escapes.
private func formDecoded(_ text: Substring) -> String {
    let spaced = text.replacingOccurrences(of: "+", with: " ")
    return spaced.removingPercentEncoding ?? spaced
}

/// A query or form body as its pairs, blank values kept, as `parse_qsl` reads it.
private func pairs(_ query: String) -> [(String, String)] {
    query.split(whereSeparator: { $0 == "&" || $0 == ";" }).map { piece in
        if let eq = piece.firstIndex(of: "=") {
            return (formDecoded(piece[..<eq]), formDecoded(piece[piece.index(after: eq)...]))
        }
        return (formDecoded(piece), "")
    }
}

private func form(_ fetch: Fetch) -> [(String, String)]? {
    guard (fetch.header(name: "content-type") ?? "").hasPrefix("application/x-www-form-urlencoded") else { return nil }
    return pairs(String(decoding: fetch.body(), as: UTF8.self))
}

private func headerPairs(_ fetch: Fetch) -> [(String, String)] {
    fetch.headers().map { ($0.name, $0.value) }
}

private func fitsRequest(_ fetch: Fetch, _ want: JSON) throws {
    try only(want, ["method", "url", "headers", "form", "json", "body"], "`request`")
    let shown = "\(fetch.method()) \(fetch.url())"
    if let method = want["method"]?.stringValue, method != fetch.method() {
        throw mismatch("expected a \(method) request, the flow asks for \(shown)")
    }
    if want["url"]?.stringValue != fetch.url() {
        throw mismatch("expected a request to \(want["url"]?.text ?? "?"), the flow asks for \(shown)")
    }
    do {
        if let headers = want["headers"] { try fitsMembers(headers, headerPairs(fetch), fold: true) }
        if let members = want["form"] {
            guard let form = form(fetch) else { throw mismatch("the body is not a form") }
            try fitsMembers(members, form, fold: false)
        }
        if let body = want["body"], body.stringValue.map({ Data($0.utf8) }) != fetch.body() {
            throw mismatch("expected the body \(body.text), got '\(String(decoding: fetch.body(), as: UTF8.self))'")
        }
        if let json = want["json"] {
            guard let doc = try? JSON.parse(String(decoding: fetch.body(), as: UTF8.self)) else {
                throw mismatch("the body is not JSON")
            }
            try fits(json, doc, "")
        }
    } catch let e as BrokenCase {
        throw mismatch("\(shown): \(e)")
    }
}

private func fitsAuthorize(_ url: String, _ want: JSON) throws {
    try only(want, ["url", "endpoint", "query"], "`authorize`")
    if let whole = want["url"]?.stringValue, whole != url { throw mismatch("expected \(whole), got \(url)") }
    let parts = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let endpoint = String(parts[0])
    let query = parts.count > 1 ? String(parts[1]) : ""
    if let wanted = want["endpoint"]?.stringValue, wanted != endpoint {
        throw mismatch("expected the endpoint \(wanted), got \(url)")
    }
    if let members = want["query"] { try fitsMembers(members, pairs(query), fold: false) }
}

private func hiddenInDescription(_ fetch: Fetch, _ secrets: [String]) throws {
    let printed = String(describing: fetch), reflected = String(reflecting: fetch)
    let own = headerPairs(fetch).filter { ["authorization", "dpop"].contains($0.0.lowercased()) }.map(\.1)
        + (form(fetch) ?? []).filter { secretMembers.contains($0.0) }.map(\.1)
    for secret in own.filter({ $0.count >= minAutoSecret }) + secrets
    where printed.contains(secret) || reflected.contains(secret) {
        throw mismatch("the request's description shows the secret '\(secret)': \(printed)")
    }
}

private func response(_ given: JSON?) throws -> (UInt16, [HttpHeader], Data) {
    guard let given, given.members != nil else { throw mismatch("a request step needs its `response` object") }
    try only(given, ["status", "headers", "body", "text"], "the response")
    if given.has("body") && given.has("text") { throw mismatch("give `body` or `text`, not both") }
    let body = given["body"].map(\.text) ?? given["text"]?.stringValue ?? ""
    let headers = (given["headers"]?.members ?? []).map { HttpHeader(name: $0.key, value: $0.value.stringValue ?? "") }
    return (UInt16(given["status"]?.uint64Value ?? 200), headers, Data(body.utf8))
}

private func issued(_ body: Data, _ secrets: inout [String]) {
    guard let doc = try? JSON.parse(String(decoding: body, as: UTF8.self)), doc.members != nil else { return }
    for key in ["access_token", "refresh_token", "id_token", "client_secret"] {
        if let token = doc[key]?.stringValue, token.count >= minAutoSecret { secrets.append(token) }
    }
}

private func shown(_ error: AuthError, _ secrets: [String]) throws -> AuthError {
    let message: String
    switch error {
    case .Failed(_, _, let detail), .Invalid(_, _, let detail): message = detail
    }
    if message.count >= maxMessageChars { throw mismatch("the error's message is long: \(message)") }
    for secret in secrets where message.contains(secret) {
        throw mismatch("the error's message shows the secret '\(secret)': \(message)")
    }
    return error
}

private func describe(_ step: AuthStep) -> String {
    switch step {
    case .fetch(let request): return "a request, \(request.method()) \(request.url())"
    case .authorize(let authorization): return "an authorization, \(authorization.url)"
    case .poll(_, _, _, let request): return "a poll, \(request.method()) \(request.url())"
    case .done: return "its grant"
    }
}

private func begin(_ script: JSON, _ config: AuthConfig, _ secrets: inout [String]) throws -> AuthBegun {
    guard let server = script["server"]?.stringValue else { throw mismatch("`server` is required") }
    let now = script["now"]?.uint64Value ?? 0
    if script.has("challenge") == script.has("refresh") { throw mismatch("give exactly one of `challenge` and `refresh`") }
    if let challenge = script["challenge"] {
        try only(challenge, ["status", "wwwAuthenticate"], "`challenge`")
        guard let status = challenge["status"]?.uint64Value else { throw mismatch("`challenge.status` is required") }
        let previous = try script["previous"].map { try Grant.fromJson(json: $0.text) }
        return try startAuthFlow(
            resourceUrl: server,
            challenge: parseChallenge(status: UInt16(status), wwwAuthenticate: challenge["wwwAuthenticate"]?.stringValue),
            config: config,
            entropy: entropy(script["entropy"], 64),
            previous: previous
        )
    }
    guard let refresh = script["refresh"] else { throw mismatch("`refresh` is required") }
    try only(refresh, ["grant", "untimed", "entropy"], "`refresh`")
    if script.has("entropy") || script.has("previous") {
        throw mismatch("a refresh takes its entropy in `refresh`, and no `previous`")
    }
    guard let stored = refresh["grant"] else { throw mismatch("`refresh.grant` is required") }
    let grant = try Grant.fromJson(json: stored.text)
    let kept = try JSON.parse(grant.toJson())
    for key in ["access_token", "refresh_token"] {
        if let token = kept[key]?.stringValue, token.count >= minAutoSecret { secrets.append(token) }
    }
    if refresh["untimed"]?.boolValue == true {
        return try refreshAuthFlowUntimed(resourceUrl: server, grant: grant, config: config)
    }
    return try refreshAuthFlow(resourceUrl: server, grant: grant, config: config, entropy: entropy(refresh["entropy"], 32), nowMs: now)
}

/// Runs one step: the next thing the flow does, or its error when the step is the last.
private func step(_ flow: AuthFlow, _ next: AuthStep, _ step: JSON, at: UInt64, _ secrets: inout [String], last: Bool) throws -> AuthStep {
    func attempt(_ secrets: [String], _ run: () throws -> AuthStep) throws -> AuthStep {
        do {
            return try run()
        } catch let error as AuthError {
            if !last { throw mismatch("the flow failed, steps remain: \(error)") }
            throw try shown(error, secrets)
        }
    }
    if let wanted = step["request"] {
        try only(step, ["poll", "request", "response", "now"], "a request step")
        let fetch: Fetch
        switch (next, step["poll"]) {
        case (.fetch(let request), nil):
            fetch = request
        case (.poll(let code, let atMs, let attempt, let request), let want?):
            try fitsPoll(code: code, atMs: atMs, attempt: attempt, want)
            fetch = request
        default:
            throw mismatch("the flow gives \(describe(next))")
        }
        try fitsRequest(fetch, wanted)
        try hiddenInDescription(fetch, secrets)
        let (status, headers, body) = try response(step["response"])
        for (name, value) in form(fetch) ?? [] where secretMembers.contains(name) && value.count >= minAutoSecret {
            secrets.append(value)
        }
        issued(body, &secrets)
        return try attempt(secrets) { try flow.onResponse(status: status, headers: headers, body: body, nowMs: at) }
    }
    if let redirect = step["redirect"]?.stringValue {
        try only(step, ["authorize", "redirect", "now"], "a redirect step")
        guard case .authorize(let authorization) = next else { throw mismatch("the flow gives \(describe(next))") }
        if let wanted = step["authorize"] { try fitsAuthorize(authorization.url, wanted) }
        let query = redirect.replacingOccurrences(of: "{state}", with: authorization.state)
        for (name, value) in pairs(query) where name == "code" && value.count >= minAutoSecret { secrets.append(value) }
        return try attempt(secrets) { try flow.onRedirect(query: query, nowMs: at) }
    }
    throw mismatch("a step has neither `request` nor `redirect`")
}

private func authFlow(_ input: String) throws -> String {
    let script = try JSON.parse(input)
    try only(script, ["server", "challenge", "previous", "refresh", "config", "entropy", "now", "secrets", "steps"], "the script")
    var secrets = (script["secrets"]?.arrayValue ?? []).compactMap(\.stringValue)
    let now = script["now"]?.uint64Value ?? 0
    let steps = script["steps"]?.arrayValue ?? []
    let begun: AuthBegun
    do {
        guard let given = script["config"] else { throw mismatch("`config` is required") }
        begun = try begin(script, config(given, &secrets), &secrets)
    } catch let error as AuthError {
        if !steps.isEmpty { throw mismatch("the flow failed to start, steps remain: \(error)") }
        throw try shown(error, secrets)
    }
    var next = begun.next
    for (i, given) in steps.enumerated() {
        do {
            next = try step(begun.flow, next, given, at: given["now"]?.uint64Value ?? now, &secrets, last: i + 1 == steps.count)
        } catch let e as BrokenCase {
            throw mismatch("step \(i): \(e)")
        }
    }
    switch next {
    case .done(let grant):
        return "{\"grant\":\(grant.toJson())}"
    case .authorize(let a):
        let consent = JSON.fields(("kind", .string(a.request.kind)), ("prompt", .string(a.request.prompt)), ("url", .string(orNull: a.request.url)))
        return JSON.fields(("authorize", .fields(
            ("url", .string(a.url)), ("state", .string(a.state)), ("redirectUri", .string(a.redirectUri)), ("consent", consent)
        ))).text
    case .fetch(let request), .poll(_, _, _, let request):
        throw mismatch("the flow asks for \(request.method()) \(request.url()) after the last step")
    }
}

/// Checks a poll of the device grant against the step's `poll`: every member required, compared
/// exactly.
private func fitsPoll(code: DeviceCode, atMs: UInt64, attempt: UInt32, _ want: JSON) throws {
    let members = ["at", "attempt", "userCode", "verificationUri", "verificationUriComplete", "expiresAt"]
    try only(want, Set(members), "`poll`")
    let got: [String: JSON] = [
        "at": .number(String(atMs)),
        "attempt": .number(String(attempt)),
        "userCode": .string(code.userCode),
        "verificationUri": .string(code.verificationUri),
        "verificationUriComplete": .string(orNull: code.verificationUriComplete),
        "expiresAt": .number(String(code.expiresAtMs)),
    ]
    for member in members {
        guard let expected = want[member] else { throw mismatch("the poll: `\(member)` is missing") }
        if expected != got[member] {
            throw mismatch("the poll: `\(member)` is \(got[member]?.text ?? "nothing"), not \(expected.text)")
        }
    }
}

/// The authorization flow.
let authRunners: [String: Runner] = [
    "auth_flow": { c, input in try authFlow(input.text(c.limits)) },
]
