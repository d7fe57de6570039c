// auth-client: a small MCP client in Swift, the client of the official MCP conformance suite's
// authorization scenarios (`cargo xtask test swift` runs the suite with it). Its HTTP goes through
// URLSession (FoundationNetworking on Linux), its few MCP requests (initialize, tools/list,
// tools/call) are written here by hand, and every authorization decision is the binding's: the
// policy on each refused request, the flow from a challenge to a grant, the consent asked before
// a sign-in link is opened, the DPoP proof of each request that carries a DPoP-bound token.
//
// The suite runs `auth-client URL` with MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION
// and, for some scenarios, MCP_CONFORMANCE_CONTEXT (JSON) set. The client lists the server's tools
// and calls each with no arguments, as a person trying the server would. Its "browser" opens the
// authorization link without following redirects past the redirect URI, as
// ASWebAuthenticationSession hands the app its callback; the suite's authorization server grants
// at once. It exits 1 with the reason on standard error when the server cannot be used.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JSONText
import Toolnexus

/// The 2026-07-28 revision: stateless, `_meta` on every request, no handshake.
let modern = "2026-07-28"
/// Where the sign-in comes back: caught in the redirect, never listened on.
let redirectUri = "http://127.0.0.1:33418/callback"
/// The client's metadata document, which the suite's servers accept as a client id.
let clientMetadataUrl = "https://conformance-test.local/client-metadata.json"

func log(_ line: String) {
    FileHandle.standardError.write(Data("auth-client (swift): \(line)\n".utf8))
}

/// The platform's secure random bytes (`SecRandomCopyBytes` on Apple platforms; the system's
/// generator, `getrandom`, here).
func randomBytes(_ count: Int) -> Data {
    var generator = SystemRandomNumberGenerator()
    return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
}

/// The client failed; the suite reads what it did from the servers, the reason goes to stderr.
struct Stop: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// An HTTP exchange as the client saw it.
struct Exchange {
    let status: Int
    let headers: [HttpHeader]
    let body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// What a data task's completion handler hands back to the waiting caller.
final class Answered: @unchecked Sendable {
    var outcome: Result<Exchange, Error> = .failure(Stop("no answer"))
}

/// URLSession, never following a redirect: the flow refuses them, the browser handles its own.
final class Http: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    static let shared = Http()
    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.connectionProxyDictionary = [:]
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func send(_ method: String, _ url: String, _ headers: [HttpHeader], _ body: Data) throws -> Exchange {
        guard let target = URL(string: url) else { throw Stop("not a URL: \(url)") }
        var request = URLRequest(url: target)
        request.httpMethod = method
        for header in headers { request.addValue(header.value, forHTTPHeaderField: header.name) }
        if method != "GET" { request.httpBody = body }
        let done = DispatchSemaphore(value: 0)
        let answer = Answered()
        session.dataTask(with: request) { data, response, error in
            if let error {
                answer.outcome = .failure(error)
            } else if let http = response as? HTTPURLResponse {
                let read = http.allHeaderFields.compactMap { name, value -> HttpHeader? in
                    guard let name = name as? String, let value = value as? String else { return nil }
                    return HttpHeader(name: name.lowercased(), value: value)
                }
                answer.outcome = .success(Exchange(status: http.statusCode, headers: read, body: data ?? Data()))
            }
            done.signal()
        }.resume()
        done.wait()
        return try answer.outcome.get()
    }
}

/// What the scenario gives the client to sign in with, as an app's configuration would.
struct Setup {
    let server: String
    let scenario: String
    let context: JSON

    private func text(_ key: String) -> String? { context[key]?.stringValue }

    func config() throws -> AuthConfig {
        let grant: GrantKind?
        if scenario == "auth/client-credentials-basic" || text("private_key_pem") != nil {
            grant = .clientCredentials
        } else if text("valid_jwt") != nil {
            grant = .jwtBearer
        } else if text("idp_id_token") != nil {
            grant = .enterprise
        } else {
            grant = nil
        }
        let confidential = text("client_secret") != nil || grant != nil
        return try AuthConfig(
            clientName: "toolnexus",
            redirectUri: redirectUri,
            clientId: text("client_id"),
            clientSecret: text("client_secret"),
            clientIssuer: text("issuer") ?? (confidential ? boundIssuer() : nil),
            clientMetadataUrl: grant == nil ? clientMetadataUrl : nil,
            grant: grant,
            clientKeyPem: text("private_key_pem"),
            assertion: text("valid_jwt"),
            idToken: text("idp_id_token"),
            idpTokenEndpoint: text("idp_token_endpoint"),
            idpClientId: text("idp_client_id")
        )
    }

    /// The authorization server the server's own protected resource metadata names (RFC 9728):
    /// where a confidential client's credentials are bound, as the person running the workload
    /// found out before giving them.
    private func boundIssuer() -> String? {
        guard let url = URL(string: server), let scheme = url.scheme, let host = url.host else { return nil }
        let port = url.port.map { ":\($0)" } ?? ""
        let location = "\(scheme)://\(host)\(port)/.well-known/oauth-protected-resource\(url.path)"
        guard let got = try? Http.shared.send("GET", location, [HttpHeader(name: "accept", value: "application/json")], Data()),
              let doc = try? JSON.parse(String(decoding: got.body, as: UTF8.self))
        else { return nil }
        return doc["authorization_servers"]?.arrayValue?.first?.stringValue
    }
}

/// One MCP server over streamable HTTP, authorized through the binding.
final class Mcp {
    private let url: String
    private let version: String
    private let config: AuthConfig
    private let policy: AuthPolicy
    private var sessionId: String?
    private var nextId: UInt64 = 1
    /// The grant held: the app's Keychain would keep `grant.toJson()`.
    private var grant: Grant?

    init(url: String, version: String, config: AuthConfig) {
        self.url = url
        self.version = version
        self.config = config
        policy = AuthPolicy(maxAuthorizations: config.maxAuthorizations())
    }

    private var isModern: Bool { version == modern }

    func initialize() throws {
        if isModern { return }
        _ = try call("initialize", [
            JSON.Member("protocolVersion", .string(version)),
            JSON.Member("capabilities", .object([])),
            JSON.Member("clientInfo", .fields(("name", .string("toolnexus-swift-auth")), ("version", .string("0.1.0")))),
        ])
        _ = try send("notifications/initialized", nil, .fields(("jsonrpc", .string("2.0")), ("method", .string("notifications/initialized"))))
    }

    func tools() throws -> [String] {
        let result = try call("tools/list", [])
        return (result?["tools"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    func callTool(_ name: String) throws {
        _ = try call("tools/call", [JSON.Member("name", .string(name)), JSON.Member("arguments", .object([]))])
    }

    /// Sends a request and returns its result; a JSON-RPC error or a refusal stops the client.
    private func call(_ method: String, _ params: [JSON.Member]) throws -> JSON? {
        let id = nextId
        nextId += 1
        var members = params
        if isModern {
            members.append(JSON.Member("_meta", .fields(
                ("io.modelcontextprotocol/protocolVersion", .string(version)),
                ("io.modelcontextprotocol/clientInfo", .fields(("name", .string("toolnexus-swift-auth")), ("version", .string("0.1.0")))),
                ("io.modelcontextprotocol/clientCapabilities", .object([]))
            )))
        }
        let message = JSON.fields(("jsonrpc", .string("2.0")), ("id", .integer(id)), ("method", .string(method)), ("params", .object(members)))
        let name = params.first { $0.key == "name" }?.value.stringValue
        let exchange = try send(method, name, message)
        if method == "initialize" { sessionId = exchange.header("mcp-session-id") }
        let response = try responseOf(exchange, id)
        if let error = response["error"] { throw Stop("\(method): the server answered the error \(error.text)") }
        return response["result"]
    }

    /// The JSON-RPC response with `id`: the body, or the event of the SSE stream that carries it.
    private func responseOf(_ exchange: Exchange, _ id: UInt64) throws -> JSON {
        let text = String(decoding: exchange.body, as: UTF8.self)
        guard (200...299).contains(exchange.status) else { throw Stop("HTTP \(exchange.status): \(text.prefix(300))") }
        var messages: [JSON] = []
        if (exchange.header("content-type") ?? "").hasPrefix("text/event-stream") {
            for event in text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n") {
                let data = event.split(separator: "\n").filter { $0.hasPrefix("data:") }
                    .map { $0.dropFirst(5).drop(while: { $0 == " " }) }.joined(separator: "\n")
                if !data.isEmpty, let message = try? JSON.parse(data) { messages.append(message) }
            }
        } else {
            messages.append(try JSON.parse(text))
        }
        guard let response = messages.first(where: { $0["id"]?.uint64Value == id }) else {
            throw Stop("no response to request \(id) in: \(text.prefix(300))")
        }
        return response
    }

    /// Posts `message`, authorized with the grant held; a refusal goes to the policy, which says
    /// whether to send again (with the grant held, with the server's DPoP nonce, after a refresh
    /// or a new authorization) or to give up.
    private func send(_ method: String, _ name: String?, _ message: JSON) throws -> Exchange {
        let body = Data(message.text.utf8)
        var nonce: String?
        var retriedWithNonce = false
        while true {
            let held = grant
            var headers = [
                HttpHeader(name: "content-type", value: "application/json"),
                HttpHeader(name: "accept", value: "application/json, text/event-stream"),
            ]
            if isModern {
                headers.append(HttpHeader(name: "mcp-protocol-version", value: version))
                headers.append(HttpHeader(name: "mcp-method", value: method))
                if let name { headers.append(HttpHeader(name: "mcp-name", value: name)) }
            } else if method != "initialize" {
                headers.append(HttpHeader(name: "mcp-protocol-version", value: version))
            }
            if let sessionId { headers.append(HttpHeader(name: "mcp-session-id", value: sessionId)) }
            let sent = held?.authorization()
            if let held, let sent {
                headers.append(HttpHeader(name: "authorization", value: sent))
                if let proof = try held.proof(method: "POST", url: url, jtiEntropy: randomBytes(32), nonce: nonce) {
                    headers.append(HttpHeader(name: "dpop", value: proof))
                }
            }
            let exchange = try Http.shared.send("POST", url, headers, body)
            guard exchange.status == 401 || exchange.status == 403 else { return exchange }
            let challenges = exchange.headers.filter { $0.name == "www-authenticate" }.map(\.value)
            let decision = try policy.decide(
                status: UInt16(exchange.status),
                wwwAuthenticate: challenges.isEmpty ? nil : challenges.joined(separator: ", "),
                dpopNonce: exchange.header("dpop-nonce"),
                sent: sent,
                held: held,
                retriedWithNonce: retriedWithNonce
            )
            log("\(method) answered \(exchange.status): \(decision)")
            nonce = nil
            retriedWithNonce = false
            switch decision {
            case .resend:
                break
            case .retryWithNonce(let given):
                nonce = given
                retriedWithNonce = true
            case .refresh:
                guard let held else { throw Stop("a refresh with no grant held") }
                do {
                    hold(try drive(refreshAuthFlow(resourceUrl: url, grant: held, config: config, entropy: randomBytes(32))))
                } catch let error as AuthError {
                    log("the refresh failed: \(error)")
                    policy.refreshFailed()
                }
            case .authorize(let challenge), .stepUp(let challenge):
                hold(try drive(startAuthFlow(resourceUrl: url, challenge: challenge, config: config, entropy: randomBytes(64), previous: held)))
            }
        }
    }

    private func hold(_ new: Grant) {
        grant = new
        policy.holdsNewGrant()
    }

    /// Runs a flow to its grant: each request sent, each sign-in consented to and opened.
    private func drive(_ begun: AuthBegun) throws -> Grant {
        var step = begun.next
        while true {
            switch step {
            case .fetch(let request):
                log("the flow asks for \(request)")
                let got = try Http.shared.send(request.method(), request.url(), request.headers(), request.body())
                step = try begun.flow.onResponse(status: UInt16(got.status), headers: got.headers, body: got.body)
            case .authorize(let authorization):
                step = try begun.flow.onRedirect(query: signIn(authorization))
            case .poll(let code, let atMs, let attempt, let request):
                // The device grant: the person signs in elsewhere; the app waits as told.
                if attempt == 1 { log("sign in at \(code.link) with the code \(code.userCode)") }
                let now = UInt64(Date().timeIntervalSince1970 * 1000)
                if atMs > now { Thread.sleep(forTimeInterval: Double(atMs - now) / 1000) }
                let got = try Http.shared.send(request.method(), request.url(), request.headers(), request.body())
                step = try begun.flow.onResponse(status: UInt16(got.status), headers: got.headers, body: got.body)
            case .done(let grant):
                return grant
            }
        }
    }

    /// The person's side of a sign-in: the consent `Request` shown (its link reviewed by the
    /// core, a rejected one never opened), then the browser, which opens the link and stops at
    /// the redirect URI: the query the app gets back.
    private func signIn(_ authorization: Authorize) throws -> String {
        let consent = authorization.request
        guard let link = consent.url else { throw Stop("a consent request without its link") }
        let review = reviewUrl(url: link)
        log("consent asked (\(consent.kind)): \(consent.prompt) [review: \(review.verdict)]")
        if review.verdict == .reject { throw Stop("the sign-in link is refused by its review") }
        var at = authorization.url
        for _ in 0..<10 {
            if at.hasPrefix(authorization.redirectUri) { return URLComponents(string: at)?.percentEncodedQuery ?? "" }
            let got = try Http.shared.send("GET", at, [], Data())
            guard let location = got.header("location"), let next = URL(string: location, relativeTo: URL(string: at)) else {
                throw Stop("the sign-in page answered \(got.status) without a redirect")
            }
            at = next.absoluteString
        }
        throw Stop("the sign-in did not come back to \(authorization.redirectUri)")
    }
}

let environment = ProcessInfo.processInfo.environment
guard let url = CommandLine.arguments.dropFirst().last else {
    log("usage: auth-client URL")
    exit(2)
}
let scenario = environment["MCP_CONFORMANCE_SCENARIO"] ?? ""
if !scenario.hasPrefix("auth/") {
    // The suite runs a requirement set's other client scenarios too; they are the CLI's.
    log("\(scenario) is no authorization scenario: nothing to do")
    exit(1)
}
let version = environment["MCP_CONFORMANCE_PROTOCOL_VERSION"].flatMap { $0.isEmpty ? nil : $0 } ?? "2025-11-25"
do {
    let context = try environment["MCP_CONFORMANCE_CONTEXT"].flatMap { $0.isEmpty ? nil : try JSON.parse($0) } ?? .object([])
    let mcp = Mcp(url: url, version: version, config: try Setup(server: url, scenario: scenario, context: context).config())
    try mcp.initialize()
    for tool in try mcp.tools() { try mcp.callTool(tool) }
} catch let error as AuthError {
    log("the authorization failed: \(error)")
    exit(1)
} catch {
    log("stopped: \(error)")
    exit(1)
}
