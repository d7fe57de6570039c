// AuthClient.kt: a small MCP client on the JVM, the client of the official MCP conformance
// suite's authorization scenarios (AuthSuite.kt runs it). Its HTTP goes through java.net.http,
// its few MCP requests (initialize, tools/list, tools/call) are written here by hand, and every
// authorization decision is the binding's: the policy on each refused request, the flow from a
// challenge to a grant, the consent asked before a sign-in link is opened, the DPoP proof of
// each request that carries a DPoP-bound token.
//
// The suite runs `AuthClientKt URL` with MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION
// and, for some scenarios, MCP_CONFORMANCE_CONTEXT (JSON) set. The client lists the server's
// tools and calls each with no arguments, as a person trying the server would. Its "browser"
// opens the authorization link without following redirects past the redirect URI, as a phone's
// sign-in surface hands the app the redirect; the suite's authorization server grants at once.
// It exits 1 with the reason on standard error when the server cannot be used.

import dev.toolnexus.*
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.security.SecureRandom
import java.time.Duration
import kotlin.system.exitProcess

/** The 2026-07-28 revision: stateless, `_meta` on every request, no handshake. */
private const val MODERN = "2026-07-28"

/** Where the sign-in comes back: caught in the redirect, never listened on. */
private const val REDIRECT_URI = "http://127.0.0.1:33418/callback"

/** The client's metadata document, which the suite's servers accept as a client id. */
private const val CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"

private val random = SecureRandom()

private fun randomBytes(count: Int): ByteArray = ByteArray(count).also(random::nextBytes)

private fun log(line: String) = System.err.println("auth-client (kotlin): $line")

/** The client failed; the suite reads what it did from the servers, the reason goes to stderr. */
class Stop(message: String) : Exception(message)

/** An HTTP exchange as the client saw it. */
class Exchange(val status: Int, val headers: List<HttpHeader>, val body: ByteArray) {
    fun header(name: String): String? = headers.firstOrNull { it.name.equals(name, ignoreCase = true) }?.value

    /** Every value of the header `name`, joined as one with `", "`. */
    fun joined(name: String): String? =
        headers.filter { it.name.equals(name, ignoreCase = true) }.map { it.value }.ifEmpty { null }?.joinToString(", ")
}

/** java.net.http, never following a redirect: the flow refuses them, the browser handles its own. */
object Http {
    private val client: HttpClient = HttpClient.newBuilder()
        .followRedirects(HttpClient.Redirect.NEVER)
        .connectTimeout(Duration.ofSeconds(10))
        .proxy(HttpClient.Builder.NO_PROXY)
        .build()

    fun send(method: String, url: String, headers: List<HttpHeader>, body: ByteArray): Exchange {
        val request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
        for (header in headers) request.header(header.name, header.value)
        request.method(method, if (method == "GET") HttpRequest.BodyPublishers.noBody() else HttpRequest.BodyPublishers.ofByteArray(body))
        val response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray())
        val read = response.headers().map().flatMap { (name, values) -> values.map { HttpHeader(name.lowercase(), it) } }
        return Exchange(response.statusCode(), read, response.body())
    }
}

/** What the scenario gives the client to sign in with, as an app's configuration would. */
class Setup(private val server: String, private val scenario: String, private val context: Map<String, Any?>) {
    private fun text(key: String): String? = context[key] as String?

    fun config(): AuthConfig {
        val grant: GrantKind? = when {
            scenario == "auth/client-credentials-basic" || text("private_key_pem") != null -> GrantKind.CLIENT_CREDENTIALS
            text("valid_jwt") != null -> GrantKind.JWT_BEARER
            text("idp_id_token") != null -> GrantKind.ENTERPRISE
            else -> null
        }
        val confidential = text("client_secret") != null || grant != null
        return AuthConfig(
            clientName = "toolnexus",
            redirectUri = REDIRECT_URI,
            clientId = text("client_id"),
            clientSecret = text("client_secret"),
            clientIssuer = text("issuer") ?: if (confidential) boundIssuer() else null,
            clientMetadataUrl = if (grant == null) CLIENT_METADATA_URL else null,
            grant = grant,
            clientKeyPem = text("private_key_pem"),
            assertion = text("valid_jwt"),
            idToken = text("idp_id_token"),
            idpTokenEndpoint = text("idp_token_endpoint"),
            idpClientId = text("idp_client_id"),
        )
    }

    /**
     * The authorization server the server's own protected resource metadata names (RFC 9728, at
     * the location made from the server's path): where a confidential client's credentials are
     * bound, as the person running the workload found out before giving them.
     */
    private fun boundIssuer(): String? {
        val uri = URI.create(server)
        val location = "${uri.scheme}://${uri.authority}/.well-known/oauth-protected-resource${uri.path}"
        return try {
            val got = Http.send("GET", location, listOf(HttpHeader("accept", "application/json")), ByteArray(0))
            val doc = parseJson(String(got.body, Charsets.UTF_8)).asObject()
            (doc?.get("authorization_servers") as List<*>?)?.firstOrNull() as String?
        } catch (e: Exception) {
            null
        }
    }
}

/** One MCP server over streamable HTTP, authorized through the binding. */
class Mcp(private val url: String, private val version: String, private val config: AuthConfig) {
    private val modern = version == MODERN
    private val policy = AuthPolicy(config.maxAuthorizations())
    private var sessionId: String? = null
    private var nextId = 1

    /** The grant held: the app's secret store would keep `grant.toJson()`. */
    private var grant: Grant? = null

    fun initialize() {
        if (modern) return
        call("initialize", linkedMapOf(
            "protocolVersion" to version,
            "capabilities" to emptyMap<String, Any?>(),
            "clientInfo" to linkedMapOf("name" to "toolnexus-kotlin-auth", "version" to "0.1.0"),
        ))
        notify("notifications/initialized")
    }

    @Suppress("UNCHECKED_CAST")
    fun tools(): List<String> {
        val result = call("tools/list", linkedMapOf()).asObject() ?: emptyMap()
        return (result["tools"] as List<Map<String, Any?>>? ?: emptyList()).map { it["name"] as String }
    }

    fun callTool(name: String): Any? = call("tools/call", linkedMapOf("name" to name, "arguments" to emptyMap<String, Any?>()))

    private fun notify(method: String) {
        send(method, null, linkedMapOf("jsonrpc" to "2.0", "method" to method))
    }

    /** Sends a request and returns its result; a JSON-RPC error or a refusal stops the client. */
    private fun call(method: String, params: LinkedHashMap<String, Any?>): Any? {
        val id = nextId++
        if (modern) {
            params["_meta"] = linkedMapOf(
                "io.modelcontextprotocol/protocolVersion" to version,
                "io.modelcontextprotocol/clientInfo" to linkedMapOf("name" to "toolnexus-kotlin-auth", "version" to "0.1.0"),
                "io.modelcontextprotocol/clientCapabilities" to emptyMap<String, Any?>(),
            )
        }
        val message = linkedMapOf("jsonrpc" to "2.0", "id" to id, "method" to method, "params" to params)
        val exchange = send(method, params["name"] as String?, message)
        if (method == "initialize") sessionId = exchange.header("mcp-session-id")
        val response = responseOf(exchange, id)
        response["error"]?.let { throw Stop("$method: the server answered the error ${toJson(it)}") }
        return response["result"]
    }

    /** The JSON-RPC response with `id`: the body, or the event of the SSE stream that carries it. */
    private fun responseOf(exchange: Exchange, id: Int): Map<String, Any?> {
        if (exchange.status !in 200..299) throw Stop("HTTP ${exchange.status}: ${String(exchange.body, Charsets.UTF_8).take(300)}")
        val text = String(exchange.body, Charsets.UTF_8)
        val messages = if ((exchange.header("content-type") ?: "").startsWith("text/event-stream")) {
            text.split(Regex("\r?\n\r?\n")).mapNotNull { event ->
                val data = event.lines().filter { it.startsWith("data:") }.joinToString("\n") { it.removePrefix("data:").trimStart() }
                if (data.isEmpty()) null else parseJson(data).asObject()
            }
        } else {
            listOfNotNull(parseJson(text).asObject())
        }
        return messages.firstOrNull { (it["id"] as JsonNumber?)?.toInt() == id } ?: throw Stop("no response to request $id in: ${text.take(300)}")
    }

    /**
     * Posts `message`, authorized with the grant held; a refusal goes to the policy, which says
     * whether to send again (with the grant held, with the server's DPoP nonce, after a refresh
     * or a new authorization) or to give up.
     */
    private fun send(method: String, name: String?, message: Map<String, Any?>): Exchange {
        val body = toJson(message).toByteArray(Charsets.UTF_8)
        var nonce: String? = null
        var retriedWithNonce = false
        while (true) {
            val held = grant
            val headers = mutableListOf(
                HttpHeader("content-type", "application/json"),
                HttpHeader("accept", "application/json, text/event-stream"),
            )
            if (modern) {
                headers += HttpHeader("mcp-protocol-version", version)
                headers += HttpHeader("mcp-method", method)
                if (name != null) headers += HttpHeader("mcp-name", name)
            } else if (method != "initialize") {
                headers += HttpHeader("mcp-protocol-version", version)
            }
            sessionId?.let { headers += HttpHeader("mcp-session-id", it) }
            val sent = held?.authorization()
            if (held != null && sent != null) {
                headers += HttpHeader("authorization", sent)
                held.proof("POST", url, randomBytes(32), nonce = nonce)?.let { headers += HttpHeader("dpop", it) }
            }
            val exchange = Http.send("POST", url, headers, body)
            if (exchange.status != 401 && exchange.status != 403) return exchange
            val decision = policy.decide(
                exchange.status.toUShort(),
                wwwAuthenticate = exchange.joined("www-authenticate"),
                dpopNonce = exchange.header("dpop-nonce"),
                sent = sent,
                held = held,
                retriedWithNonce = retriedWithNonce,
            )
            log("$method answered ${exchange.status}: $decision")
            nonce = null
            retriedWithNonce = false
            when (decision) {
                is AuthDecision.Resend -> {}
                is AuthDecision.RetryWithNonce -> {
                    nonce = decision.nonce
                    retriedWithNonce = true
                }
                is AuthDecision.Refresh -> {
                    val refreshed = try {
                        drive(refreshAuthFlow(url, held ?: throw Stop("a refresh with no grant held"), config, randomBytes(32)))
                    } catch (e: AuthException) {
                        log("the refresh failed: $e")
                        null
                    }
                    if (refreshed == null) policy.refreshFailed() else hold(refreshed)
                }
                is AuthDecision.Authorize -> hold(drive(startAuthFlow(url, decision.challenge, config, randomBytes(64), held)))
                is AuthDecision.StepUp -> hold(drive(startAuthFlow(url, decision.challenge, config, randomBytes(64), held)))
            }
        }
    }

    private fun hold(new: Grant) {
        grant = new
        policy.holdsNewGrant()
    }

    /** Runs a flow to its grant: each request sent, each sign-in consented to and opened. */
    private fun drive(begun: AuthBegun): Grant {
        var step = begun.next
        while (true) {
            step = when (val now = step) {
                is AuthStep.Fetch -> {
                    val request = now.request
                    log("the flow asks for $request")
                    val got = Http.send(request.method(), request.url(), request.headers(), request.body())
                    begun.flow.onResponse(got.status.toUShort(), got.headers, got.body)
                }
                is AuthStep.Authorize -> begun.flow.onRedirect(signIn(now.authorization))
                is AuthStep.Poll -> {
                    // The device grant: the person signs in elsewhere; the app waits as told.
                    if (now.attempt == 1u) log("sign in at ${now.code.link} with the code ${now.code.userCode}")
                    val wait = now.atMs.toLong() - System.currentTimeMillis()
                    if (wait > 0) Thread.sleep(wait)
                    val request = now.request
                    val got = Http.send(request.method(), request.url(), request.headers(), request.body())
                    begun.flow.onResponse(got.status.toUShort(), got.headers, got.body)
                }
                is AuthStep.Done -> return now.grant
            }
        }
    }

    /**
     * The person's side of a sign-in: the consent `Request` shown (its link reviewed by the
     * core, a rejected one never opened), then the browser, which opens the link and stops at
     * the redirect URI: the query the app gets back.
     */
    private fun signIn(authorization: Authorize): String {
        val consent = authorization.request
        val review = reviewUrl(consent.url ?: throw Stop("a consent request without its link"))
        log("consent asked (${consent.kind}): ${consent.prompt} [review: ${review.verdict}]")
        if (review.verdict == Verdict.REJECT) throw Stop("the sign-in link is refused by its review")
        var at = authorization.url
        repeat(10) {
            if (at.startsWith(authorization.redirectUri)) return URI.create(at).rawQuery ?: ""
            val got = Http.send("GET", at, emptyList(), ByteArray(0))
            val location = got.header("location") ?: throw Stop("the sign-in page answered ${got.status} without a redirect")
            at = URI.create(at).resolve(location).toString()
        }
        throw Stop("the sign-in did not come back to ${authorization.redirectUri}")
    }
}

fun main(args: Array<String>) {
    val url = args.lastOrNull() ?: run {
        System.err.println("usage: AuthClientKt URL")
        exitProcess(2)
    }
    val scenario = System.getenv("MCP_CONFORMANCE_SCENARIO") ?: ""
    val version = System.getenv("MCP_CONFORMANCE_PROTOCOL_VERSION")?.ifEmpty { null } ?: "2025-11-25"
    if (!scenario.startsWith("auth/")) {
        // The suite runs a requirement set's other client scenarios too; they are the CLI's.
        log("$scenario is no authorization scenario: nothing to do")
        exitProcess(1)
    }
    val context = System.getenv("MCP_CONFORMANCE_CONTEXT")?.ifEmpty { null }?.let { parseJson(it).asObject() } ?: emptyMap()
    try {
        val mcp = Mcp(url, version, Setup(url, scenario, context).config())
        mcp.initialize()
        for (tool in mcp.tools()) mcp.callTool(tool)
    } catch (e: Stop) {
        log("stopped: ${e.message}")
        exitProcess(1)
    } catch (e: AuthException) {
        log("the authorization failed: $e")
        exitProcess(1)
    }
}
