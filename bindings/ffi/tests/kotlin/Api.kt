// The Kotlin API as an app uses it: a form screen built from the typed fields, filled from what
// a person typed, checked and answered; URL review; the session, from several threads too; the
// 2025 JSON-RPC bridge, a 2026-07-28 multi round-trip and a task followed in both eras; a round
// and a pending request written down and restored; the form as a web page and its post read
// back; server text shown on a terminal; errors as exceptions. Any failed check ends the
// run with status 1. The cost of a mapping call is measured and reported, never enforced.

import dev.toolnexus.*
import java.util.concurrent.Callable
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import kotlin.system.exitProcess

object Api {
    private var passed = 0
    private val failures = mutableListOf<String>()

    private fun expect(what: String, ok: Boolean, got: Any? = null) {
        if (ok) passed++ else failures += "$what (got $got)"
    }

    private inline fun <T> failure(block: () -> T): ToolnexusException.Failed? = try {
        block()
        null
    } catch (e: ToolnexusException.Failed) {
        e
    }

    private val FORM = """{"mode":"form","message":"Your name?","requestedSchema":""" +
        """{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}}"""

    private val SIGN_UP_SCHEMA = """{"type":"object","properties":{""" +
        """"name":{"type":"string","title":"Name","maxLength":20},""" +
        """"email":{"type":"string","format":"email","title":"Email"},""" +
        """"age":{"type":"integer","minimum":18,"maximum":150},""" +
        """"news":{"type":"boolean","title":"Newsletter","default":false},""" +
        """"plan":{"type":"string","oneOf":[{"const":"free","title":"Free"},{"const":"pro","title":"Pro"}]},""" +
        """"topics":{"type":"array","items":{"type":"string","enum":["rust","kotlin","swift"]},"maxItems":2}},""" +
        """"required":["name","email","plan"]}"""

    private val SIGN_UP = """{"mode":"form","message":"Sign up","requestedSchema":$SIGN_UP_SCHEMA}"""

    /** What a screen shows for a field: the switch a Compose or SwiftUI view makes. */
    private fun control(field: FormField): String = when (field.widget) {
        Widget.TEXT -> "TextField"
        Widget.EMAIL -> "EmailField"
        Widget.URI -> "UrlField"
        Widget.DATE -> "DatePicker"
        Widget.DATE_TIME -> "DateTimePicker"
        Widget.NUMBER -> "DecimalField"
        Widget.INTEGER -> "NumberField"
        Widget.TOGGLE -> "Switch"
        Widget.SINGLE_SELECT -> "Picker(${field.options.joinToString("|") { it.label }})"
        Widget.MULTI_SELECT -> "Checkboxes(${field.options.joinToString("|") { it.label }})"
    }

    private fun formToRequest() {
        val request = elicitationToRequest(FORM, id = "r1")
        expect("a form becomes kind input", request.kind == "input", request.kind)
        expect("the message becomes the prompt", request.prompt == "Your name?", request.prompt)
        expect(
            "the schema is kept exactly in data",
            request.data == """{"schema":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}}""",
            request.data,
        )
        val fresh = elicitationToRequest(FORM)
        expect("without an id one is made", fresh.id.startsWith("elc-"), fresh.id)
    }

    /** A form screen from the request alone: fields, typed input, checks, the answer, MCP's reply. */
    private fun formScreen() {
        val request = elicitationToRequest(SIGN_UP, id = "signup")
        expect("the request gives its schema back exactly", request.schemaJson() == SIGN_UP_SCHEMA, request.schemaJson())
        request.form().use { form -> fillIn(request, form) }
    }

    /** The screen over `form`, the form of `request`. */
    private fun fillIn(request: Request, form: Form) {
        val fields = form.fields()
        expect("a well-formed schema has no problems", form.problems().isEmpty(), form.problems())
        expect("the request's fields are its form's", request.formFields() == fields)
        expect("one field per property, in order", fields.map { it.name } == listOf("name", "email", "age", "news", "plan", "topics"), fields.map { it.name })
        expect(
            "each field has its control",
            fields.map(::control) == listOf(
                "TextField", "EmailField", "NumberField", "Switch", "Picker(Free|Pro)", "Checkboxes(rust|kotlin|swift)",
            ),
            fields.map(::control),
        )
        val byName = fields.associateBy { it.name }
        val name = byName.getValue("name")
        expect("the title is the label", name.label == "Name" && byName.getValue("age").label == "age", name.label)
        expect("required comes from the schema", name.required && !byName.getValue("age").required)
        expect("maxLength is a constraint", name.constraints.maxLength == 20uL, name.constraints)
        expect("a bound keeps its spelling", byName.getValue("age").constraints.minimum == "18", byName.getValue("age").constraints)
        expect("a default is typed", byName.getValue("news").defaultValue == ContentValue.Boolean(false), byName.getValue("news").defaultValue)
        expect("options carry value and label", byName.getValue("plan").options == listOf(FieldOption("free", "Free"), FieldOption("pro", "Pro")), byName.getValue("plan").options)
        expect("the same fields from the schema text", formFields(SIGN_UP_SCHEMA) == fields && Form(SIGN_UP_SCHEMA).use { it.fields() } == fields)
        expect("a field by its name", form.field("plan") == byName.getValue("plan") && form.field("nope") == null)
        expect("the defaults are where a screen starts", form.defaults() == listOf(ContentEntry("news", ContentValue.Boolean(false))), form.defaults())

        val typed = mapOf("name" to " Ada ", "email" to "ada@example.org", "age" to "36", "news" to "", "plan" to "Pro", "topics" to "rust, Kotlin")
        val content = fields.mapNotNull { field -> form.parse(field.name, typed.getValue(field.name))?.let { ContentEntry(field.name, it) } }
        expect(
            "typed input becomes content; a blank optional field is left out",
            content == listOf(
                ContentEntry("name", ContentValue.Text(" Ada ")),
                ContentEntry("email", ContentValue.Text("ada@example.org")),
                ContentEntry("age", ContentValue.Number("36")),
                ContentEntry("plan", ContentValue.Text("pro")),
                ContentEntry("topics", ContentValue.TextList(listOf("rust", "kotlin"))),
            ),
            content,
        )
        val tooYoung = failure { form.parse("age", "17") }
        expect("input out of bounds is refused where it is", tooYoung?.kind == ErrorKind.INVALID_VALUE && tooYoung.pointer == "/age", tooYoung)
        val blank = failure { form.parse(name.name, "  ") }
        expect("a blank required field is missing", blank?.kind == ErrorKind.MISSING_FIELD && blank.pointer == "/name", blank)
        val stranger = failure { form.parse("nickname", "Ada") }
        expect("a field the form lacks is UnknownField at its pointer", stranger?.kind == ErrorKind.UNKNOWN_FIELD && stranger.pointer == "/nickname", stranger)

        expect("the content is valid", form.validateEntries(content).isEmpty() && validateContentEntries(SIGN_UP_SCHEMA, content).isEmpty())
        val prepared = form.prepareEntries(content)
        expect("preparing typed content or its JSON is the same", form.prepare(contentToJson(content)) == contentToJson(prepared), prepared)
        expect("the free function agrees", prepareContentEntries(SIGN_UP_SCHEMA, content) == prepared)
        expect("preparing fills the default", prepared.last() == ContentEntry("news", ContentValue.Boolean(false)), prepared)
        val incomplete = form.validateEntries(content.filter { it.name != "email" })
        expect(
            "a missing required value is one violation",
            incomplete.map { it.pointer to it.keyword } == listOf("/email" to "required") && incomplete.single().message.isNotEmpty(),
            incomplete,
        )
        val refused = failure { form.prepareEntries(content.filter { it.name != "email" }) }
        expect("preparing invalid content throws with the violations", refused?.kind == ErrorKind.INVALID_CONTENT && refused.violations == incomplete, refused)

        val answer = Answer(id = request.id, ok = true, data = contentToJson(prepared))
        val result = answerToElicitResult(answer)
        expect(
            "the answer becomes MCP's reply, content in order",
            elicitResultToJson(result) ==
                """{"action":"accept","content":{"name":" Ada ","email":"ada@example.org","age":36,"plan":"pro","topics":["rust","kotlin"],"news":false}}""",
            elicitResultToJson(result),
        )
    }

    /** A screen's start and its reply in one call each: the same as the calls they stand for. */
    private fun oneCallScreens() {
        elicitationToScreen(SIGN_UP, id = "signup").use { screen ->
            val request = elicitationToRequest(SIGN_UP, id = "signup")
            expect("the screen's request is elicitationToRequest's", screen.request == request, screen.request)
            val form = screen.form
            expect("a form request's screen has its form", form != null && screen.review == null, screen.review)
            request.form().use { expect("and its fields, the form's", screen.fields == it.fields() && form?.fields() == it.fields(), screen.fields) }
            val typed = form?.parse("age", "36")
            expect("the screen's form checks what is typed", typed == ContentValue.Number("36"), typed)
        }
        val link = """{"mode":"url","message":"Log in","url":"https://bücher.example/auth","elicitationId":"e-1"}"""
        elicitationToScreen(link, id = "u1").use { screen ->
            expect("a URL request's screen has no form", screen.form == null && screen.fields.isEmpty(), screen.fields)
            expect("and the review of its URL", screen.review == reviewUrl("https://bücher.example/auth"), screen.review)
        }
        val unusable = failure { elicitationToScreen("""{"mode":"form","message":"?","requestedSchema":{"type":"object","properties":{"n":{}}}}""") }
        expect("a schema that is no form fails under /requestedSchema", unusable?.pointer?.startsWith("/requestedSchema/properties/n") == true, unusable)
        val notJson = failure { elicitationToScreen("""{"mode":""") }
        expect("text that is no JSON fails as elicitationToRequest does", notJson?.kind == ErrorKind.INVALID_JSON, notJson)

        for (answer in listOf(
            Answer(id = "r1", ok = true, data = """{"name":"Ada","age":36.50}"""),
            Answer(id = "r1", ok = false, reason = Reason.Declined),
            Answer(id = "r1", ok = false),
        )) {
            expect("the reply in one call is the reply in two", answerToElicitResultJson(answer) == elicitResultToJson(answerToElicitResult(answer)), answer)
        }
        val wrong = failure { answerToElicitResultJson(Answer(id = "r1", ok = true, data = """{"n":{"deep":1}}""")) }
        expect("and fails as they do", wrong?.kind == failure { answerToElicitResult(Answer(id = "r1", ok = true, data = """{"n":{"deep":1}}""")) }?.kind && wrong?.pointer == "/data/n", wrong)

        Session().use { session ->
            session.beginScreen(SIGN_UP, id = "s1", nowMs = 0uL).use { screen ->
                expect("a session's screen is the request it began", session.get("s1") == screen.request, screen.request)
                expect("with the form it prepared", screen.fields == session.form("s1")?.use { it.fields() } && screen.form != null, screen.fields)
            }
            val duplicate = failure { session.beginScreen(SIGN_UP, id = "s1", nowMs = 0uL) }
            expect("and fails as begin does", duplicate?.kind == ErrorKind.DUPLICATE_REQUEST, duplicate)
        }
    }

    private fun answerToResult() {
        val answer = Answer(id = "r1", ok = true, data = """{"name":"Ada","age":36.50,"tags":["a","b"],"ok":true}""")
        val result = answerToElicitResult(answer)
        expect("ok becomes accept", result.action == Action.ACCEPT, result.action)
        val content = result.content.orEmpty().associate { it.name to it.value }
        expect("text stays text", content["name"] == ContentValue.Text("Ada"), content["name"])
        val age = content["age"]
        expect("a number keeps its spelling", age == ContentValue.Number("36.50"), age)
        expect("a number reads as a double", age?.asDouble() == 36.5, age?.asDouble())
        expect("text is no number", content["name"]?.asDouble() == null)
        expect("a list stays a list", content["tags"] == ContentValue.TextList(listOf("a", "b")), content["tags"])
        expect("a boolean stays a boolean", content["ok"] == ContentValue.Boolean(true), content["ok"])
        expect(
            "the result is written with the content in order",
            elicitResultToJson(result) == """{"action":"accept","content":{"name":"Ada","age":36.50,"tags":["a","b"],"ok":true}}""",
            elicitResultToJson(result),
        )
        val declined = answerToElicitResult(Answer(id = "r1", ok = false, reason = Reason.Declined))
        expect("declined becomes decline", declined.action == Action.DECLINE, declined.action)
        val other = answerToElicitResult(Answer(id = "r1", ok = false, reason = Reason.Other("busy")))
        expect("another reason becomes cancel", other.action == Action.CANCEL && other.content == null, other)
    }

    private fun recordsRoundTrip() {
        val request = Request(id = "r2", kind = "authorization", prompt = "Sign in", url = "https://example.com/a")
        val json = requestToJson(request)
        expect("optionals left out are absent", json == """{"id":"r2","kind":"authorization","prompt":"Sign in","url":"https://example.com/a"}""", json)
        expect("a request reads back equal", requestFromJson(json) == request)
        val result = ElicitResult(action = Action.ACCEPT, content = listOf(ContentEntry("n", ContentValue.Number("1e2"))))
        expect("a number is written as spelt", elicitResultToJson(result) == """{"action":"accept","content":{"n":1e2}}""", elicitResultToJson(result))
    }

    private fun urlReview() {
        val fine = reviewUrl("https://example.com/login")
        expect("an https link is ok", fine.verdict == Verdict.OK && fine.findings.isEmpty(), fine)
        expect("its parts are given", fine.scheme == "https" && fine.hostAscii == "example.com" && fine.port == 443.toUShort(), fine)
        val spoof = reviewUrl("https://xn--pypal-4ve.com/")
        expect(
            "a look-alike host is flagged with reasons a person can read",
            spoof.verdict == Verdict.WARN &&
                spoof.findings.map { it.code } == listOf(FindingCode.PUNYCODE_HOST, FindingCode.MIXED_SCRIPT_HOST) &&
                spoof.findings.all { it.severity == Severity.WARN && it.message.isNotEmpty() } &&
                spoof.host == "p\u0430ypal.com",
            spoof,
        )
        val script = reviewUrl("javascript:alert(1)")
        expect("a script link is rejected", script.verdict == Verdict.REJECT, script)
        expect("names are the suite's", script.verdict.asStr() == "reject" && FindingCode.NOT_HTTPS.asStr() == "not_https")
    }

    private fun terminal() {
        val rewrite = "x\u001b[2K\r\u001b[1A  URL:  https://bank.example/login"
        val shown = terminalText(rewrite, LineBreaks.KEEP)
        expect("a line that rewrites the screen is shown, not obeyed", shown == "x\\u{1b}[2K\\r\\u{1b}[1A  URL:  https://bank.example/login", shown)
        expect("a block keeps its line breaks", terminalText("a\r\nb\tc", LineBreaks.KEEP) == "a\nb\tc")
        expect("one line shows them", terminalText("a\r\nb\tc", LineBreaks.SHOW) == "a\\r\\nb\\tc")
        expect("JSON stays JSON", terminalJson("[\"\u202e\"]") == "[\"\\u202e\"]", terminalJson("[\"\u202e\"]"))
        expect("names are the suite's", LineBreaks.entries.map { it.asStr() } == listOf("keep", "show") && lineBreaksFromName("show") == LineBreaks.SHOW)
        val unknown = failure { lineBreaksFromName("Keep") }
        expect("an unknown name is refused", unknown?.kind == ErrorKind.INVALID_VALUE && unknown.pointer == "", unknown)
    }

    private fun secrets() {
        val schema = """{"type":"object","properties":{"user":{"type":"string"},"password":{"type":"string"}}}"""
        val found = sensitiveFields(schema)
        expect("a password field is sensitive", found == listOf(SensitiveField("password", SecretKind.PASSWORD)), found)
        val refused = failure { rejectSecrets(schema) }
        expect("the policy refuses it at its property", refused?.kind == ErrorKind.SENSITIVE_FIELD && refused.pointer == "/properties/password", refused)
        expect("the form marks it", formFields(schema).single { it.name == "password" }.secretKind == SecretKind.PASSWORD)
        Form(schema).use { form ->
            expect("the form finds the same", form.sensitiveFields() == found, form.sensitiveFields())
            val its = failure { form.rejectSecrets() }
            expect("and refuses the same", its?.kind == ErrorKind.SENSITIVE_FIELD && its.pointer == "/properties/password", its)
        }
        expect("a kind says what it is", SecretKind.PASSWORD.describe() == "a password", SecretKind.PASSWORD.describe())
    }

    private fun session() {
        Session(SessionOptions(ttlMs = 60_000uL)).use { session ->
            val form = session.begin(FORM, id = "s1", nowMs = 1_000uL)
            expect("a begun form is pending", session.pending().map { it.id } == listOf("s1") && session.isPending("s1"))
            expect("its expiry is now plus the time to live", form.expiresAt == "1970-01-01T00:01:01Z", form.expiresAt)
            session.form("s1")!!.use { prepared ->
                expect("the session gives the form it prepared", prepared.fields().map { it.name } == listOf("name", "age"), prepared.fields())
            }
            val duplicate = failure { session.begin(FORM, id = "s1", nowMs = 1_000uL) }
            expect("the same id twice is refused", duplicate?.kind == ErrorKind.DUPLICATE_REQUEST, duplicate)
            val invalid = failure { session.resolve(Answer(id = "s1", ok = true, data = """{"age":"old"}"""), nowMs = 2_000uL) }
            expect("content against the schema is refused", invalid?.kind == ErrorKind.INVALID_CONTENT && invalid.violations.map { it.pointer } == listOf("/age"), invalid)
            expect("and leaves the request pending", session.isPending("s1"))
            val result = session.resolve(Answer(id = "s1", ok = true, data = """{"name":"Ada"}"""), nowMs = 2_000uL)
            expect("a valid answer is accepted", result.action == Action.ACCEPT && session.get("s1") == null, result)
            val unknown = failure { session.resolve(Answer(id = "s1", ok = false), nowMs = 2_000uL) }
            expect("an answer for nothing pending is refused", unknown?.kind == ErrorKind.UNKNOWN_REQUEST && unknown.pointer == "/id", unknown)

            val link = """{"mode":"url","message":"Log in","url":"https://example.com/auth","elicitationId":"e-1"}"""
            session.begin(link, id = "u1", nowMs = 0uL)
            expect("a URL request has no form", session.form("u1") == null && session.form("nothing") == null)
            session.resolve(Answer(id = "u1", ok = true), nowMs = 0uL)
            expect("an accepted link waits for completion", session.awaitingCompletion() == listOf(AwaitingCompletion("u1", "e-1")), session.awaitingCompletion())
            expect("completion names its request", session.complete("e-1") == "u1" && session.complete("e-1") == null)

            session.begin(FORM, id = "late", nowMs = 0uL)
            expect("a request is not lapsed at its expiry", session.expire(nowMs = 60_000uL).isEmpty())
            val lapsed = session.expire(nowMs = 60_001uL)
            expect("a lapsed request is cancelled", lapsed.map { it.id to it.result.action } == listOf("late" to Action.CANCEL), lapsed)
        }
    }

    /** One session shared by several threads, each beginning and resolving its own requests. */
    private fun sessionAcrossThreads() {
        val threads = 8
        val perThread = 200
        Session(SessionOptions(maxPending = (threads * perThread).toULong())).use { session ->
            val pool = Executors.newFixedThreadPool(threads)
            val work = (0 until threads).map { t ->
                Callable {
                    (0 until perThread).count { i ->
                        val id = "t$t-$i"
                        session.begin(FORM, id = id, nowMs = 0uL)
                        val data = """{"name":"$id","age":$i}"""
                        session.resolve(Answer(id = id, ok = true, data = data), nowMs = 0uL).content ==
                            listOf(ContentEntry("name", ContentValue.Text(id)), ContentEntry("age", ContentValue.Number("$i")))
                    }
                }
            }
            val answered = pool.invokeAll(work).sumOf { it.get() }
            pool.shutdown()
            pool.awaitTermination(1, TimeUnit.MINUTES)
            expect("every thread's answers came back as its own", answered == threads * perThread, answered)
            expect("nothing is left pending", session.pending().isEmpty(), session.pending().size)
        }
    }

    // The scenario every binding runs: 16 threads share one object; each thread's n-th request
    // is accepted, declined, answered with invalid content (refused, stays pending) or left
    // alone, and every resolved request is answered a second time (refused).
    private val THREADS = 16
    private val EACH = 40
    private val TOTAL = THREADS * EACH
    private val REQUIRED_FORM = """{"mode":"form","message":"m","requestedSchema":""" +
        """{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}"""

    private class Counts(var begun: Int = 0, var resolved: Int = 0, var resolvedTwice: Int = 0, var refused: Int = 0) {
        operator fun plus(o: Counts) =
            Counts(begun + o.begun, resolved + o.resolved, resolvedTwice + o.resolvedTwice, refused + o.refused)
    }

    private fun answerFor(n: Int, id: String): Answer? = when (n % 4) {
        0 -> Answer(id = id, ok = true, data = """{"a":"x"}""")
        1 -> Answer(id = id, ok = false, reason = Reason.Declined)
        2 -> Answer(id = id, ok = true, data = "{}")
        else -> null
    }

    private fun settle(counts: Counts, n: Int, id: String, resolve: (Answer) -> Unit) {
        val answer = answerFor(n, id) ?: return
        if (failure { resolve(answer) } != null) {
            counts.refused++
            return
        }
        counts.resolved++
        if (failure { resolve(answer) } == null) counts.resolvedTwice++ else counts.refused++
    }

    private fun onSixteenThreads(work: (Int) -> Counts): Counts {
        val pool = Executors.newFixedThreadPool(THREADS)
        val start = java.util.concurrent.CyclicBarrier(THREADS)
        val total = pool.invokeAll((0 until THREADS).map { t -> Callable { start.await(); work(t) } })
            .map { it.get() }
            .fold(Counts()) { a, b -> a + b }
        pool.shutdown()
        pool.awaitTermination(1, TimeUnit.MINUTES)
        return total
    }

    private fun expectCounts(what: String, counts: Counts, refused: Int, pending: Int) {
        expect("$what: every request began", counts.begun == TOTAL, counts.begun)
        expect("$what: half resolved", counts.resolved == TOTAL / 2, counts.resolved)
        expect("$what: none resolved twice", counts.resolvedTwice == 0, counts.resolvedTwice)
        expect("$what: the refusals add up", counts.refused == refused, counts.refused)
        expect("$what: the rest is pending", pending == TOTAL - counts.resolved, pending)
    }

    private fun sixteenThreads() {
        Session(SessionOptions(maxPending = TOTAL.toULong())).use { session ->
            val counts = onSixteenThreads { t ->
                val counts = Counts()
                for (n in 0 until EACH) {
                    val id = "t$t-$n"
                    session.begin(REQUIRED_FORM, id = id, nowMs = 0uL)
                    counts.begun++
                    if (failure { session.begin(REQUIRED_FORM, id = id, nowMs = 0uL) } != null) counts.refused++
                    settle(counts, n, id) { session.resolve(it, nowMs = 0uL) }
                }
                counts
            }
            expectCounts("session", counts, TOTAL + TOTAL / 2 + TOTAL / 4, session.pending().size)
        }
        ReverseBridge(SessionOptions(maxPending = TOTAL.toULong())).use { bridge ->
            val counts = onSixteenThreads { t ->
                val counts = Counts()
                for (n in 0 until EACH) {
                    val message = """{"jsonrpc":"2.0","id":${t * 1000 + n},"method":"elicitation/create","params":$REQUIRED_FORM}"""
                    val elicit = bridge.receive(message, nowMs = 0uL) as Incoming.Elicit
                    counts.begun++
                    settle(counts, n, elicit.request.id) { bridge.respond(it, nowMs = 0uL) }
                }
                counts
            }
            expectCounts("bridge", counts, TOTAL / 2 + TOTAL / 4, bridge.pending().size)
        }
        val entries = (0 until THREADS).flatMap { t ->
            (0 until EACH).map { n -> """"k$t-$n":{"method":"elicitation/create","params":$REQUIRED_FORM}""" }
        }
        val result = """{"resultType":"input_required","inputRequests":{${entries.joinToString(",")}},"requestState":"s"}"""
        ClientRequest.fromJson("""{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}""").use { request ->
            InputRound.start(request, result, SessionOptions(maxPending = TOTAL.toULong()), nowMs = 0uL).use { round ->
                val ids = round.requests().associate { it.key to it.request.id }
                val counts = onSixteenThreads { t ->
                    val counts = Counts()
                    for (n in 0 until EACH) {
                        counts.begun++
                        settle(counts, n, ids.getValue("k$t-$n")) { round.resolve(it, nowMs = 0uL) }
                    }
                    counts
                }
                expectCounts("round", counts, TOTAL / 2 + TOTAL / 4, round.missing().size)
                expect("round: the pending requests match", round.pending().size == TOTAL - counts.resolved, round.pending().size)
            }
        }
    }

    /** A Kotlin string can hold a lone surrogate, which UTF-8 cannot: it never crosses. */
    private fun rawLoneSurrogate() {
        val refused = try {
            answerToElicitResult(Answer(id = "a\uD800", ok = false))
            false
        } catch (e: java.nio.charset.CharacterCodingException) {
            true
        }
        expect("a raw lone surrogate is refused before it reaches the library", refused)
        val escaped = failure { answerFromJson("""{"id":"a\ud800","ok":false}""") }
        expect("an escaped one is lone_surrogate at /id", escaped?.kind == ErrorKind.LONE_SURROGATE && escaped.pointer == "/id", escaped)
        // The limits hold for records as for text: a 5 MiB id is too_large at "" either way.
        val big = "x".repeat(5 * 1024 * 1024)
        val asRecord = failure { answerToElicitResult(Answer(id = big, ok = false)) }
        val asText = failure { answerFromJson("{\"id\":\"$big\",\"ok\":false}") }
        expect("a record over the size limit is too_large at \"\"", asRecord?.kind == ErrorKind.TOO_LARGE && asRecord.pointer == "", asRecord)
        expect("as its JSON text is", asText?.kind == asRecord?.kind && asText?.pointer == asRecord?.pointer, asText)
        val entries = (0..1000).map { ContentEntry("p$it", ContentValue.Boolean(true)) }
        val tooMany = failure { contentToJson(entries) }
        expect("1,001 content entries are too_many_members at \"\"", tooMany?.kind == ErrorKind.TOO_MANY_MEMBERS && tooMany.pointer == "", tooMany)
    }

    private fun reverseBridge() {
        val formsOnly = modesFromName("form")
        expect("modes by name", formsOnly == Modes(form = true, url = false) && formsOnly.supports(Mode.FORM) && !formsOnly.supports(Mode.URL), formsOnly)
        expect("an unknown modes name is refused", failure { modesFromName("both") }?.kind == ErrorKind.INVALID_VALUE)
        ReverseBridge(SessionOptions(modes = formsOnly)).use { bridge ->
            expect("the capabilities name the modes", bridge.capabilities() == """{"elicitation":{"form":{}}}""", bridge.capabilities())
            val message = """{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":$FORM}"""
            val incoming = bridge.receive(message, nowMs = 1_000uL)
            val elicit = incoming as? Incoming.Elicit
            expect("an elicitation/create asks the host", elicit?.rpcId == RpcId.Number("7") && elicit.request.id == "elc-3e8-1", incoming)
            expect("the bridge gives the form it prepared", bridge.form("elc-3e8-1")?.use { it.fields().map { f -> f.name } } == listOf("name", "age"))
            val response = bridge.respond(Answer(id = "elc-3e8-1", ok = false, reason = Reason.Declined), nowMs = 2_000uL)
            expect("the answer is the JSON-RPC response", response == """{"jsonrpc":"2.0","id":7,"result":{"action":"decline"}}""", response)
            val url = """{"jsonrpc":"2.0","id":8,"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://example.com/","elicitationId":"e"}}"""
            val reply = bridge.receive(url, nowMs = 3_000uL) as? Incoming.Reply
            expect("a mode not declared is an error reply", reply?.response?.contains("\"id\":8") == true, reply)
            val ignored = bridge.receive("""{"jsonrpc":"2.0","method":"notifications/progress"}""")
            expect("a notification is ignored", ignored == Incoming.Ignored(IgnoreReason.NOTIFICATION), ignored)
        }
    }

    private fun multiRoundTrip() {
        val call = """{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy","arguments":{"env":"prod"}}}"""
        val response = """{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{""" +
            """"region":{"method":"elicitation/create","params":{"mode":"form","message":"Which region?",""" +
            """"requestedSchema":{"type":"object","properties":{"region":{"type":"string","enum":["eu","us"]}},"required":["region"]}}},""" +
            """"roots":{"method":"roots/list"}},"requestState":"st-1"}}"""
        val classified = classifyResult(response) as? ServerResult.NeedsInput
        expect("the result needs input", classified?.input?.inputRequests?.map { it.key to it.isElicitation } == listOf("region" to true, "roots" to false), classified)
        ClientRequest.fromJson(call).use { request ->
            InputRound.start(request, response, nowMs = 0uL).use { round ->
                val asked = round.requests().single()
                expect("the elicitation is a Request", asked.key == "region" && asked.request.formFields().single().widget == Widget.SINGLE_SELECT, asked)
                expect("other methods are the host's", round.unhandled().map { it.method } == listOf("roots/list"))
                val resolved = round.resolve(Answer(id = asked.request.id, ok = true, data = """{"region":"eu"}"""), nowMs = 0uL)
                expect("resolving gives the keyed result", resolved.key == "region" && resolved.result.action == Action.ACCEPT, resolved)
                expect("the roots are still missing", round.missing() == listOf("roots"), round.missing())
                val early = failure { round.retry(RpcId.Number("2")) }
                expect("a retry waits for every response", early?.kind == ErrorKind.MISSING_RESPONSES, early)
                round.supply("roots", """{"roots":[]}""")
                val retry = round.retry(RpcId.Number("2"))
                expect(
                    "the retry stamps the capabilities first and carries the responses and the state exactly",
                    retry == """{"jsonrpc":"2.0","id":2,"method":"tools/call","params":""" +
                        """{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}},""" +
                        """"name":"deploy","arguments":{"env":"prod"},"inputResponses":{"region":{"action":"accept","content":{"region":"eu"}},"roots":{"roots":[]}},"requestState":"st-1"}}""",
                    retry,
                )
            }
        }
    }

    /** A round and a session's pending request written down, restored elsewhere, and refused. */
    private fun snapshots() {
        val key = "k-2026: a seal key of 32 bytes or more".toByteArray()
        val previous = "k-2025: a seal key of 32 bytes or more".toByteArray()
        val call = """{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy"}}"""
        val response = """{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{""" +
            """"region":{"method":"elicitation/create","params":{"message":"Which region?",""" +
            """"requestedSchema":{"type":"object","properties":{"region":{"type":"string","enum":["eu","us"]}},"required":["region"]}}},""" +
            """"login":{"method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://example.com/login","elicitationId":"e-1"}},""" +
            """"roots":{"method":"roots/list"}},"requestState":"st-1"}}"""
        val options = SessionOptions(ttlMs = 60_000uL, applyDefaults = true, rejectSecrets = true)
        ClientRequest.fromJson(call).use { request ->
            InputRound.start(request, response, options, nowMs = 1_000uL).use { round ->
                val region = round.requests().first { it.key == "region" }.request.id
                round.resolve(Answer(id = region, ok = true, data = """{"region":"eu"}"""), nowMs = 2_000uL)
                val sealed = round.snapshot(key)
                expect("a sealed snapshot is tnseal1. and ASCII", String(sealed, Charsets.UTF_8).startsWith("tnseal1.") && sealed.all { it >= 0 })
                expect("the same key seals the same bytes", round.snapshot(key).contentEquals(sealed))
                val plain = String(round.snapshot(), Charsets.UTF_8)
                expect("unsealed, it is the versioned document", plain.startsWith("""{"snapshot":"input-round","version":1,"""), plain)
                val id = round.snapshotId()
                expect("the snapshot's id is 43 URL-safe characters", id.length == 43 && id.all { it.isLetterOrDigit() || it == '-' || it == '_' }, id)
                InputRound.restore(sealed, listOf(previous, key), nowMs = 3_000uL).use { restored ->
                    expect("a restored round has the id of its snapshot", restored.snapshotId() == id, restored.snapshotId())
                    expect("the options come back", restored.options() == options, restored.options())
                    expect("the pending requests come back, ids and expiry too", restored.pending() == round.pending(), restored.pending())
                    expect("what was begun and is still waiting", restored.requests() == restored.pending(), restored.requests())
                    expect("the same keys are missing", restored.missing() == listOf("login", "roots"), restored.missing())
                    expect("the state comes back", restored.requestState() == "st-1", restored.requestState())
                    for (r in listOf(round, restored)) {
                        r.resolve(Answer(id = r.pending().single().request.id, ok = true), nowMs = 3_000uL)
                        r.supply("roots", """{"roots":[]}""")
                    }
                    val retry = round.retry(RpcId.Number("2"))
                    expect("a restored round gives the same retry", restored.retry(RpcId.Number("2")) == retry, retry)
                    val again = failure { restored.retry(RpcId.Number("2")) }
                    expect("and takes its id as the original does", again?.kind == ErrorKind.INVALID_VALUE, again)
                }
                val changed = sealed.copyOf().also { it[it.size - 1] = if (it.last() == 'A'.code.toByte()) 'B'.code.toByte() else 'A'.code.toByte() }
                for ((what, refused) in listOf(
                    "a changed byte" to failure { InputRound.restore(changed, listOf(key), nowMs = 3_000uL) },
                    "a cut" to failure { InputRound.restore(sealed.copyOf(sealed.size / 2), listOf(key), nowMs = 3_000uL) },
                    "another key" to failure { InputRound.restore(sealed, listOf(previous), nowMs = 3_000uL) },
                    "no keys" to failure { InputRound.restore(sealed, nowMs = 3_000uL) },
                    "keys for an unsealed snapshot" to failure { InputRound.restore(round.snapshot(), listOf(key), nowMs = 3_000uL) },
                    "a round's seal as a pending request" to failure { Session.restore(sealed, listOf(key), nowMs = 3_000uL) },
                )) {
                    expect("$what is an invalid seal at \"\"", refused?.kind == ErrorKind.INVALID_SEAL && refused.pointer == "", refused)
                }
                val late = failure { InputRound.restore(sealed, listOf(key), nowMs = 61_001uL) }
                expect("after the earliest expiry it is expired", late?.kind == ErrorKind.EXPIRED && late.pointer == "/expiresAtMs", late)
                val clock = failure { InputRound.restore(sealed, listOf(key)) }
                expect("without nowMs the clock says it expired", clock?.kind == ErrorKind.EXPIRED, clock)
                val small = failure { InputRound.restore(round.snapshot(), limits = Limits(maxInputBytes = 64uL), nowMs = 3_000uL) }
                expect("a snapshot is read within the limits", small?.kind == ErrorKind.TOO_LARGE, small)
                for (short in listOf(ByteArray(0), "k-2026".toByteArray(), ByteArray(31))) {
                    val sealing = failure { round.snapshot(short) }
                    expect("a key under 32 bytes is refused to seal", sealing?.kind == ErrorKind.INVALID_VALUE && sealing.pointer == "/key", sealing)
                    val opening = failure { InputRound.restore(sealed, listOf(key, short), nowMs = 3_000uL) }
                    expect("and to restore, at its index", opening?.kind == ErrorKind.INVALID_VALUE && opening.pointer == "/keys/1", opening)
                }
            }
        }
        Session(SessionOptions(ttlMs = 10_000uL, applyDefaults = true, modes = modesFromName("form"))).use { session ->
            val request = session.begin(FORM, "q1", nowMs = 0uL)
            val blob = session.snapshot("q1", key)
            val id = session.snapshotId("q1")
            val short = failure { session.snapshot("q1", ByteArray(16)) }
            expect("a pending request is not sealed with a short key", short?.kind == ErrorKind.INVALID_VALUE && short.pointer == "/key", short)
            Session.restore(blob, listOf(key), nowMs = 5uL).use { restored ->
                expect("a restored session has the id of its snapshot", restored.snapshotId("q1") == id, id)
                expect("a restored session holds the request", restored.pending() == listOf(request), restored.pending())
                expect("with the options it was written with", restored.options() == session.options(), restored.options())
                expect("and the form prepared again", restored.form("q1")?.use { it.fields() } == session.form("q1")?.use { it.fields() })
                val answer = Answer(id = "q1", ok = true, data = """{"name":"Ada","age":36}""")
                expect("it answers as the original", restored.resolve(answer, nowMs = 6uL) == session.resolve(answer, nowMs = 6uL))
            }
            val gone = failure { session.snapshot("q1") }
            expect("only a pending request is written", gone?.kind == ErrorKind.UNKNOWN_REQUEST && gone.pointer == "/id", gone)
            val late = failure { Session.restore(blob, listOf(key), nowMs = 10_001uL) }
            expect("a pending request past its expiry is expired", late?.kind == ErrorKind.EXPIRED && late.pointer == "/expiresAtMs", late)
        }
        Session().use { session ->
            session.begin(FORM, "n1", nowMs = 0uL)
            val never = failure { session.snapshot("n1") }
            expect("a request that never expires is not written down", never?.kind == ErrorKind.INVALID_VALUE && never.pointer == "/id", never)
        }
        expect("the new kinds have the suite's names", ErrorKind.INVALID_SEAL.asStr() == "invalid_seal" && ErrorKind.EXPIRED.asStr() == "expired")
    }

    private fun taskFollowed() {
        val created = """{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"t1","status":"working","ttlMs":60000,"pollIntervalMs":500}}"""
        expect("a result that is no task starts nothing", followTask("""{"content":[]}""", Era.MODERN, nowMs = 0uL) == null)
        val driver = followTask(created, Era.MODERN, nowMs = 1_000uL)
        expect("a task starts a driver", driver != null)
        driver?.use {
            expect("the task is read", it.task() == TaskInfo("t1", TaskStatus.WORKING, null, null, null, 60_000uL, 500uL), it.task())
            expect("the first poll is one interval later", it.nextPollAt() == 1_500uL && !it.pollDue(1_499uL) && it.pollDue(1_500uL))
            it.get().use { get ->
                expect("tasks/get names the task", get.method() == "tasks/get" && get.paramsJson() == """{"taskId":"t1"}""", get.paramsJson())
                val fraction = failure { get.toRequest(RpcId.Number("1.5")) }
                expect("an id with a fraction is refused", fraction?.kind == ErrorKind.INVALID_VALUE, fraction)
            }
            val asked = """{"taskId":"t1","status":"input_required","inputRequests":{"region":{"method":"elicitation/create",""" +
                """"params":{"message":"Which region?","requestedSchema":{"type":"object","properties":{"region":{"type":"string","enum":["eu","us"]}},"required":["region"]}}}}}"""
            val event = it.read(asked, nowMs = 1_500uL) as? TaskEvent.InputRequired
            val request = event?.requests?.single()
            expect("input is asked once, as a Request", request?.key == "region" && request.request.id == "elc-5dc-1", event)
            expect("the form is prepared", it.form("elc-5dc-1")?.fields()?.single()?.widget == Widget.SINGLE_SELECT)
            val again = it.read(asked, nowMs = 2_000uL) as? TaskEvent.InputRequired
            expect("a request shown is not shown again", again?.requests?.isEmpty() == true, again)
            val early = failure { it.update() }
            expect("an update waits for every answer", early?.kind == ErrorKind.MISSING_RESPONSES, early)
            it.resolve(Answer(id = "elc-5dc-1", ok = true, data = """{"region":"eu"}"""), nowMs = 2_100uL)
            val update = it.update()
            expect(
                "tasks/update carries the answer",
                update?.use { call -> call.toRequest(RpcId.Text("u-1")) } ==
                    """{"jsonrpc":"2.0","id":"u-1","method":"tasks/update","params":{"taskId":"t1","inputResponses":{"region":{"action":"accept","content":{"region":"eu"}}}}}""",
            )
            expect("nothing is sent twice", it.update(partial = true) == null && it.sent() == listOf("region"))
            val other = failure { it.read("""{"taskId":"t2","status":"working"}""", nowMs = 2_500uL) }
            expect("another task is refused at /taskId", other?.kind == ErrorKind.INVALID_VALUE && other.pointer == "/taskId", other)
            val done = it.read("""{"taskId":"t1","status":"completed","result":{"content":[],"n":1.50}}""", nowMs = 3_000uL)
            expect("the result keeps its bytes", done == TaskEvent.Completed("""{"content":[],"n":1.50}""") && it.isDone(), done)
        }
        followTask("""{"task":{"taskId":"h1","status":"working","pollInterval":100}}""", Era.HANDSHAKE, nowMs = 0uL)?.use {
            expect("the handshake era reads the nested task", it.era() == Era.HANDSHAKE && it.pollIntervalMs() == 100uL)
            it.result().use { result -> expect("tasks/result names the task", result.method() == "tasks/result") }
            val waiting = it.read("""{"taskId":"h1","status":"input_required"}""", nowMs = 100uL)
            expect("input arrives through tasks/result", waiting == TaskEvent.InputRequired(emptyList()), waiting)
        } ?: expect("the handshake era starts a driver", false)
    }

    // A booking form with one field of every kind, a hostile server's words in its prompt and
    // title. Controls are named by position (tn-0 … tn-10); select values are option indexes.
    private val BOOKING_SCHEMA = """{"type":"object","properties":{""" +
        """"name":{"type":"string","title":"Name <script>alert(1)</script>","minLength":2},""" +
        """"email":{"type":"string","format":"email"},"site":{"type":"string","format":"uri"},""" +
        """"day":{"type":"string","format":"date"},"at":{"type":"string","format":"date-time"},""" +
        """"ratio":{"type":"number","maximum":1},"nights":{"type":"integer","minimum":1,"maximum":14},""" +
        """"breakfast":{"type":"boolean"},""" +
        """"room":{"type":"string","oneOf":[{"const":"single","title":"Single"},{"const":"double","title":"Double \"deluxe\""}]},""" +
        """"city":{"type":"string","enum":["a","b","c","d","e","f"]},""" +
        """"extras":{"type":"array","items":{"type":"string","enum":["parking","wifi","gym"]},"maxItems":2}},""" +
        """"required":["name","nights","breakfast","room"]}"""
    private val BOOKING = """{"mode":"form","message":"Book </form><script>steal()</script> & save","requestedSchema":$BOOKING_SCHEMA}"""
    private val BOOKED = "tn-request=w1&tn-0=Ada&tn-1=ada%40example.com&tn-2=https%3A%2F%2Fexample.com%2Fa&tn-3=2026-12-24" +
        "&tn-4=2026-12-24T18%3A30&tn-5=0.50&tn-6=3&tn-7=false&tn-8=1&tn-9=5&tn-10=2&tn-10=0&tn-action=accept"

    private fun body(text: String) = FormPost.Body(text.toByteArray(Charsets.UTF_8))

    /** The page of a form request: escaped, with the host's options, the same bytes every time. */
    private fun webFormPage() {
        val request = elicitationToRequest(BOOKING, id = "w1")
        val options = HtmlOptions(asker = "Acme <Travel>", hidden = listOf(FormPair("csrf", "t0k\"><img src=x>")))
        val page = requestHtml(request, options)
        expect("the page is one form that posts", page.startsWith("<form class=\"tn-form tn-elicitation\" method=\"post\"") && page.endsWith("</form>\n"), page.take(80))
        expect("the same request gives the same bytes", requestHtml(request, options) == page)
        expect("the request's id travels in a hidden input", "<input type=\"hidden\" name=\"tn-request\" value=\"w1\">" in page)
        expect("a hidden field's value is escaped", "<input type=\"hidden\" name=\"csrf\" value=\"t0k&quot;&gt;&lt;img src=x&gt;\">" in page)
        expect("the asker is the host's, escaped", "<bdi>Acme &lt;Travel&gt;</bdi> asks:" in page)
        expect(
            "the server's words are escaped wherever they go",
            "Book &lt;/form&gt;&lt;script&gt;steal()&lt;/script&gt; &amp; save" in page &&
                "Name &lt;script&gt;alert(1)&lt;/script&gt;" in page && "Double \"deluxe\"" in page &&
                "<script" !in page && "<img" !in page && page.indexOf("</form>") == page.length - "</form>\n".length,
            page,
        )
        expect("a required integer is a number control with its bounds", "<input type=\"number\" id=\"tn-f6\" name=\"tn-6\" step=\"1\" min=\"1\" max=\"14\" required" in page)
        expect("a long single-select is a select", "<select id=\"tn-f9\" name=\"tn-9\">" in page)
        expect("a multi-select is checkboxes", "<input type=\"checkbox\" id=\"tn-f10-0\" name=\"tn-10\" value=\"0\">" in page)
        expect("three buttons", listOf("accept", "decline", "cancel").all { "name=\"tn-action\" value=\"$it\"" in page })
        val defaults = requestHtml(request)
        expect("without options, the core's defaults", defaults == requestHtml(request, HtmlOptions()) && "csrf" !in defaults && "asks:" !in defaults)
        val prefixed = requestHtml(request, HtmlOptions(classPrefix = "app-"))
        expect("classes and ids take the prefix", "class=\"app-form app-elicitation\"" in prefixed && "id=\"app-f0\"" in prefixed && "tn-f0" !in prefixed)
        expect("the style sheet has the same classes", ".tn-form{" in htmlStylesheet() && ".app-form{" in htmlStylesheet("app-"))
        request.form().use { form ->
            expect(
                "a prepared form's page is the request's without its id",
                formHtml(form, request.prompt, options) == page.replace("<input type=\"hidden\" name=\"tn-request\" value=\"w1\">\n", ""),
            )
        }
    }

    /** Every kind of field filled in the browser and read back, as the body or as pairs. */
    private fun webFormRoundTrip() {
        val request = elicitationToRequest(BOOKING, id = "w1")
        val options = HtmlOptions(hidden = listOf(FormPair("csrf", "t0k")), utcOffset = "+01:00")
        val answer = answerFromPost(request, body("csrf=t0k&$BOOKED"), options)
        expect(
            "each field is read by its own parser, in schema order",
            answer == Answer(
                id = "w1", ok = true,
                data = """{"name":"Ada","email":"ada@example.com","site":"https://example.com/a","day":"2026-12-24",""" +
                    """"at":"2026-12-24T18:30:00+01:00","ratio":0.50,"nights":3,"breakfast":false,"room":"double","city":"f",""" +
                    """"extras":["parking","gym"]}""",
            ),
            answer,
        )
        val pairs = BOOKED.split("&").map { it.split("=", limit = 2) }.map { (name, value) -> FormPair(name, java.net.URLDecoder.decode(value, "UTF-8")) }
        expect("pairs the app decoded read the same", answerFromPost(request, FormPost.Pairs(pairs), options) == answer)
        Session().use { session ->
            val begun = session.begin(BOOKING, id = "w1", nowMs = 0uL)
            val reply = elicitResultToJson(session.resolve(answerFromPost(begun, body(BOOKED)), nowMs = 0uL))
            expect("the answer is the server's reply", reply.startsWith("""{"action":"accept","content":{"name":"Ada",""") && reply.contains(""""at":"2026-12-24T18:30:00Z""""), reply)
        }
        val sparse = answerFromPost(request, body("tn-request=w1&tn-0=Ada&tn-6=2&tn-7=true&tn-8=0&tn-9=&tn-action=accept"))
        expect("optional fields left empty are left out", sparse.data == """{"name":"Ada","nights":2,"breakfast":true,"room":"single"}""", sparse.data)
        val withDefault = elicitationToRequest("""{"message":"?","requestedSchema":{"type":"object","properties":{"n":{"type":"integer","default":7}}}}""", id = "d1")
        val filled = answerFromPost(withDefault, body("tn-action=accept"), HtmlOptions(applyDefaults = true))
        expect("applyDefaults fills what was left empty", filled.data == """{"n":7}""", filled)
        expect("without it, nothing is filled", answerFromPost(withDefault, body("tn-action=accept")) == Answer(id = "d1", ok = true))
    }

    /** Decline and cancel read no value; a URL consent accepts without data. */
    private fun webFormDeclineCancel() {
        val request = elicitationToRequest(BOOKING, id = "w1")
        val declined = answerFromPost(request, body("tn-request=w1&tn-6=99&tn-action=decline"))
        expect("Decline is a refusal, whatever the fields hold", declined == Answer(id = "w1", ok = false, reason = Reason.Declined), declined)
        val cancelled = answerFromPost(request, FormPost.Pairs(listOf(FormPair("tn-action", "cancel"))))
        expect("Cancel is a cancellation", cancelled == Answer(id = "w1", ok = false, reason = Reason.Cancelled), cancelled)
        expect("which MCP reads as decline and cancel", answerToElicitResult(declined).action == Action.DECLINE && answerToElicitResult(cancelled).action == Action.CANCEL)

        val link = elicitationToRequest("""{"mode":"url","message":"Log in","url":"https://bücher.example/auth","elicitationId":"e-1"}""", id = "u1")
        val consent = requestHtml(link)
        expect("a URL request is a consent with both spellings of its host", "tn-consent" in consent && "bücher.example" in consent && "xn--bcher-kva.example" in consent, consent)
        expect("accepting opens nothing: an answer without data", answerFromPost(link, body("tn-request=u1&tn-action=accept")) == Answer(id = "u1", ok = true))
        val rejected = elicitationToRequest("""{"mode":"url","message":"Log in","url":"javascript:alert(1)","elicitationId":"e-2"}""", id = "u2")
        expect("a rejected URL offers no Accept and no link", "value=\"accept\"" !in requestHtml(rejected) && "href=" !in requestHtml(rejected))
        val forced = failure { answerFromPost(rejected, body("tn-action=accept")) }
        expect("and a forged Accept is refused at /tn-action", forced?.kind == ErrorKind.INVALID_VALUE && forced.pointer == "/tn-action", forced)
    }

    /** An accept the form refuses, and the page written again with the exception itself. */
    private fun webFormInvalidAccept() {
        val request = elicitationToRequest(BOOKING, id = "w1")
        val post = body("tn-request=w1&tn-0=A&tn-1=%22%3E%3Cscript%3Ex()%3C%2Fscript%3E&tn-6=20&tn-7=true&tn-8=0&tn-10=0&tn-10=1&tn-10=2&tn-action=accept")
        val refused = failure { answerFromPost(request, post) }
        expect(
            "every value the form refuses is a violation, in field order",
            refused?.kind == ErrorKind.INVALID_CONTENT && refused.pointer == "" &&
                refused.violations.map { it.pointer to it.keyword } == listOf("/name" to "minLength", "/email" to "format", "/nights" to "maximum", "/extras" to "maxItems"),
            refused?.violations,
        )
        val again = requestHtml(request, post = post, error = refused)
        expect("a summary names each problem", "There are 4 problems:" in again && "<a href=\"#tn-f6\"><bdi>nights must be at most 14</bdi></a>" in again, again)
        expect("each field at fault is marked", again.split("class=\"tn-field tn-invalid\"").size == 5 && "id=\"tn-f10-2\" name=\"tn-10\" value=\"2\" checked aria-invalid=\"true\"" in again, again)
        expect("with its message beside it", "<p class=\"tn-error\" id=\"tn-f10-error\"><bdi>extras allows at most 2 choices</bdi></p>" in again, again)
        expect("the values posted are kept", "value=\"A\"" in again && "id=\"tn-f10-2\" name=\"tn-10\" value=\"2\" checked" in again, again)
        expect("a hostile value is kept escaped", "value=\"&quot;&gt;&lt;script&gt;x()&lt;/script&gt;\"" in again && "<script" !in again, again)
        // A prepared form's page carries no request id, so neither does its post.
        val anonymous = body("tn-0=A&tn-6=20&tn-7=true&tn-8=0&tn-action=accept")
        val itsError = failure { answerFromPost(request, anonymous) }
        val byRequest = requestHtml(request, post = anonymous, error = itsError)
        request.form().use { form ->
            expect(
                "a prepared form's re-render is the request's without its id",
                "tn-field tn-invalid" in byRequest && formHtml(form, request.prompt, post = anonymous, error = itsError) ==
                    byRequest.replace("<input type=\"hidden\" name=\"tn-request\" value=\"w1\">\n", ""),
                byRequest,
            )
        }
        // An error from elsewhere (here the session's) is shown by field, as the post's own.
        Session().use { session ->
            session.begin(BOOKING, id = "w1", nowMs = 0uL)
            val theirs = failure { session.resolve(Answer(id = "w1", ok = true, data = """{"name":"A"}"""), nowMs = 0uL) }
            val page = requestHtml(request, post = post, error = theirs)
            expect(
                "another error is shown by field",
                theirs != null && theirs.violations.isNotEmpty() && "aria-invalid=\"true\"" in page &&
                    theirs.violations.all { "<bdi>${it.message.replace("<", "&lt;").replace(">", "&gt;")}</bdi>" in page },
                page,
            )
        }
        val general = requestHtml(request, error = ToolnexusException.Failed(ErrorKind.UNKNOWN_REQUEST, "/id", "this request was answered already", emptyList()))
        expect("any error can be shown", "this request was answered already" in general && "There is a problem:" in general, general)
    }

    /** Posts the page did not write are refused, and options the core refuses. */
    private fun webFormRefused() {
        val request = elicitationToRequest(BOOKING, id = "w1")
        val cases = listOf(
            body("tn-99=x&tn-action=accept") to (ErrorKind.UNKNOWN_FIELD to "/tn-99"),
            body("tn-request=w2&tn-action=cancel") to (ErrorKind.UNKNOWN_REQUEST to "/tn-request"),
            body("tn-0=Ada") to (ErrorKind.MISSING_FIELD to "/tn-action"),
            body("tn-action=accept&tn-action=cancel") to (ErrorKind.DUPLICATE_KEY to "/tn-action"),
            body("tn-action=send") to (ErrorKind.INVALID_VALUE to "/tn-action"),
            body("tn-8=7&tn-action=accept") to (ErrorKind.INVALID_VALUE to "/room"),
            body("tn-0=%E2%8&tn-action=accept") to (ErrorKind.INVALID_VALUE to "/tn-0"),
            FormPost.Body(byteArrayOf(0x74, 0x6e, 0x2d, 0x30, 0x3d, 0xff.toByte())) to (ErrorKind.INVALID_UTF8 to "/tn-0"),
        )
        for ((post, want) in cases) {
            val refused = failure { answerFromPost(request, post) }
            expect("a post the page did not write is refused: ${want.second}", refused?.kind == want.first && refused.pointer == want.second, refused)
        }
        val unread = failure { requestHtml(request, post = body("tn-0=%zz"), error = failure { answerFromPost(request, body("tn-0=%zz")) }) }
        expect("a post that cannot be read cannot be shown again either", unread?.kind == ErrorKind.INVALID_VALUE && unread.pointer == "/tn-0", unread)
        val tooMany = failure { answerFromPost(request, body("a=1&b=2&c=3"), limits = Limits(maxObjectMembers = 2uL)) }
        expect("a post beyond the limits is refused before it is read", tooMany?.kind == ErrorKind.TOO_MANY_MEMBERS && tooMany.pointer == "", tooMany)
        val tooLarge = failure { answerFromPost(request, FormPost.Pairs(listOf(FormPair("tn-0", "x".repeat(64)))), limits = Limits(maxInputBytes = 32uL)) }
        expect("pairs too", tooLarge?.kind == ErrorKind.TOO_LARGE, tooLarge)
        for ((options, pointer) in listOf(
            HtmlOptions(classPrefix = "9lives") to "/classPrefix",
            HtmlOptions(hidden = listOf(FormPair("tn-x", "1"))) to "/hidden/tn-x",
            HtmlOptions(hidden = listOf(FormPair("csrf", "1"), FormPair("csrf", "2"))) to "/hidden/csrf",
            HtmlOptions(utcOffset = "+1") to "/utcOffset",
        )) {
            val bad = failure { requestHtml(request, options) }
            expect("options the core refuses are refused: $pointer", bad?.kind == ErrorKind.INVALID_VALUE && bad.pointer == pointer, bad)
        }
        expect("so is a class prefix for the style sheet", failure { htmlStylesheet("") }?.pointer == "/classPrefix")
        val noForm = failure { requestHtml(Request(id = "x", kind = "approval", prompt = "?")) }
        expect("a request with neither form nor URL cannot be shown", noForm?.kind == ErrorKind.MISSING_FIELD && noForm.pointer == "/data/schema", noForm)
    }

    /** bindings/ffi/README.md's WebView example, as written there (the names it leaves to the app given here). */
    private fun webViewReadme() {
        val session = Session()
        val request = session.begin("""{"message":"How many?","requestedSchema":{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]}}""")
        val token = "t0k"
        var shown = ""
        var reply = ""
        fun readme(body: ByteArray) {
            // From the README:
            val options = HtmlOptions(asker = "Acme Travel", hidden = listOf(FormPair("csrf", token)))
            val page = requestHtml(request, options)                   // one <form method="post">, for your page
            val css = htmlStylesheet()                                  // serve it from the page's origin

            // What the form posted: the body as the WebView gives it, or FormPost.Pairs you decoded.
            val post = FormPost.Body(body)
            try {
                val answer = answerFromPost(request, post, options)    // accept, decline or cancel
                reply = elicitResultToJson(session.resolve(answer))     // what goes back to the server
            } catch (e: ToolnexusException.Failed) {
                if (e.kind != ErrorKind.INVALID_CONTENT) throw e        // a post your page did not write
                shown = requestHtml(request, options, post, e)          // values kept, each message by its field
            }
            // (end of the README's example)
            expect("the README's page and style sheet", page.contains("Acme Travel") && css.isNotEmpty())
        }
        readme("csrf=t0k&tn-request=${request.id}&tn-0=0&tn-action=accept".toByteArray())
        expect("the README's re-render", shown.contains("aria-invalid=\"true\"") && reply.isEmpty(), shown)
        readme("csrf=t0k&tn-request=${request.id}&tn-0=2&tn-action=accept".toByteArray())
        expect("the README's reply", reply == """{"action":"accept","content":{"n":2}}""", reply)
        session.close()
    }

    private fun errorsAreExceptions() {
        val notJson = failure { requestFromJson("{") }
        expect("bad JSON throws InvalidJson", notJson?.kind == ErrorKind.INVALID_JSON, notJson)
        expect("the kind has the suite's name", notJson?.kind?.asStr() == "invalid_json", notJson)
        expect("the message says what and where", notJson?.message?.contains("INVALID_JSON") == true, notJson?.message)
        val emptyId = failure { elicitationToRequest(FORM, id = "") }
        expect("an empty id is refused at /id", emptyId?.kind == ErrorKind.INVALID_VALUE && emptyId.pointer == "/id", emptyId)
        val badData = failure { answerToElicitResult(Answer(id = "r1", ok = true, data = """{"x":{"y":1}}""")) }
        expect("an object in content is WrongType at /data/x", badData?.kind == ErrorKind.WRONG_TYPE && badData.pointer == "/data/x", badData)
        val notObject = failure { answerToJson(Answer(id = "r1", ok = true, data = "[1]")) }
        expect("data that is no object is refused at /data", notObject?.pointer == "/data", notObject)
        val badNumber = failure {
            elicitResultToJson(ElicitResult(action = Action.ACCEPT, content = listOf(ContentEntry("n", ContentValue.Number("NaN")))))
        }
        expect("a number spelt wrong is refused where it is", badNumber?.pointer == "/content/n", badNumber)
        val contentOnCancel = failure {
            elicitResultToJson(ElicitResult(action = Action.CANCEL, content = emptyList()))
        }
        expect("content on cancel is refused", contentOnCancel?.pointer == "/content", contentOnCancel)
        val tooDeep = failure { requestFromJson("[[[1]]]", Limits(maxDepth = 2uL)) }
        expect("limits apply", tooDeep?.kind == ErrorKind.TOO_DEEP, tooDeep)
        val notUtf8 = failure { answerFromJsonBytes(byteArrayOf(0x22, 0xff.toByte(), 0x22)) }
        expect("bytes that are not UTF-8 are InvalidUtf8", notUtf8?.kind == ErrorKind.INVALID_UTF8, notUtf8)
        val badSchema = failure { formFields("""{"type":"object","properties":{"o":{"type":"object"}}}""") }
        expect("a schema a form cannot show is refused where it is", badSchema?.kind == ErrorKind.INVALID_VALUE && badSchema.pointer == "/properties/o/type", badSchema)
        val invalid = failure { prepareContent("""{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]}""", """{"n":0,"x":1}""") }
        expect(
            "invalid content carries every violation",
            invalid?.kind == ErrorKind.INVALID_CONTENT && invalid.violations.map { it.pointer to it.keyword } == listOf("/n" to "minimum", "/x" to "additionalProperties"),
            invalid?.violations,
        )
    }

    private val STORED_GRANT = """{"version":1,"access_token":"at-secret-123456","token_type":"Bearer",""" +
        """"refresh_token":"rt-secret-123456","issuer":"https://as.example","token_endpoint":"https://as.example/token",""" +
        """"client":{"client_id":"app","auth_method":"none","issuer":"https://as.example"}}"""

    /** Authorization as an app holds it: nothing secret printed, the grant's stored form, the policy. */
    private fun authorization() {
        val config = AuthConfig("Example", "com.example.app:/oauth", clientId = "app",
            clientSecret = "client-secret-123456", clientIssuer = "https://as.example")
        expect("a configuration's toString hides its secret", "client-secret-123456" !in config.toString(), config)
        val grant = Grant.fromJson(STORED_GRANT)
        expect("a grant's toString hides its tokens", "at-secret" !in grant.toString() && "rt-secret" !in grant.toString(), grant)
        expect("a grant goes to the store and back as the same text", grant.toJson() == STORED_GRANT, grant.toJson())
        expect("a Bearer grant's header", grant.authorization() == "Bearer at-secret-123456" && !grant.isDpop())
        expect("a Bearer grant needs no proof", grant.proof("POST", "https://mcp.example/mcp", ByteArray(32)) == null)
        val newer = try {
            Grant.fromJson(STORED_GRANT.replace("\"version\":1", "\"version\":2"))
            null
        } catch (e: AuthException.Failed) {
            e
        }
        expect("a stored grant of another version is refused", newer?.kind == AuthErrorKind.INVALID_GRANT && newer?.pointer == "/version", newer)
        val stray = try {
            AuthConfig("Example", "com.example.app:/oauth", assertion = "jwt-123456")
            null
        } catch (e: AuthException.Failed) {
            e
        }
        expect("an option of another grant is refused, named as Kotlin names it",
            stray?.kind == AuthErrorKind.INVALID_CONFIG && stray?.detail?.contains("assertion") == true, stray)
        val policy = AuthPolicy()
        val first = policy.decide(401u, "Bearer resource_metadata=\"https://mcp.example/.well-known/oauth-protected-resource\"")
        expect("a first 401 asks for an authorization", first is AuthDecision.Authorize && first.challenge.resourceMetadata != null, first)
        policy.holdsNewGrant()
        val resend = policy.decide(401u, "Bearer", sent = null, held = grant)
        expect("a request sent before the grant is sent again with it", resend is AuthDecision.Resend, resend)
        val refresh = policy.decide(401u, "Bearer error=\"invalid_token\"", sent = grant.authorization(), held = grant)
        expect("a refused token with a refresh token is refreshed", refresh is AuthDecision.Refresh, refresh)
        val short = try {
            startAuthFlow("https://mcp.example/mcp", parseChallenge(401u, "Bearer"), config, ByteArray(10))
            null
        } catch (e: AuthException.Invalid) {
            e
        }
        expect("entropy of another length is an invalid value", short?.kind == ErrorKind.INVALID_VALUE, short)
        val begun = startAuthFlow("https://mcp.example/mcp", parseChallenge(401u, "Bearer"), config, ByteArray(64))
        val fetch = (begun.next as? AuthStep.Fetch)?.request
        expect("a flow begins with its resource metadata", fetch?.method() == "GET" && fetch?.url()?.startsWith("https://mcp.example/.well-known/") == true, fetch)
    }

    fun run(): Boolean {
        val parts = listOf(
            ::formToRequest, ::formScreen, ::oneCallScreens, ::answerToResult, ::recordsRoundTrip, ::urlReview, ::terminal, ::secrets,
            ::session, ::sessionAcrossThreads, ::sixteenThreads, ::rawLoneSurrogate, ::reverseBridge, ::multiRoundTrip, ::snapshots, ::taskFollowed,
            ::webFormPage, ::webFormRoundTrip, ::webFormDeclineCancel, ::webFormInvalidAccept, ::webFormRefused, ::webViewReadme,
            ::errorsAreExceptions, ::authorization,
        )
        for (part in parts) {
            try {
                part()
            } catch (e: Exception) {
                failures += "${part.name} threw ${e::class.qualifiedName}: ${e.message}"
            }
        }
        for (failure in failures) println("FAIL $failure")
        println("api (kotlin): $passed passed, ${failures.size} failed")
        return failures.isEmpty()
    }
}

fun main() {
    // The README's example, as a reader copies it (cargo xtask writes it out of README.md).
    readmeExample(
        """{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}""",
        """{"name":"Ada"}""",
    )
    println("api (kotlin): the README's example ran")
    if (!Api.run()) exitProcess(1)
}
