// The Kotlin API as an app uses it: records built by hand, mappings, typed content, errors as
// exceptions. Run after the conformance suite; any failed check ends the run with status 1.

import dev.toolnexus.*
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

    private fun errorsAreExceptions() {
        val notJson = failure { requestFromJson("{") }
        expect("bad JSON throws InvalidJson", notJson?.kind == ErrorKind.INVALID_JSON, notJson)
        expect("the kind has the suite's name", notJson?.let { errorKindName(it.kind) } == "invalid_json", notJson)
        val emptyId = failure { elicitationToRequest(FORM, id = "") }
        expect("an empty id is refused at /id", emptyId?.kind == ErrorKind.INVALID_VALUE && emptyId.path == "/id", emptyId)
        val badData = failure { answerToElicitResult(Answer(id = "r1", ok = true, data = """{"x":{"y":1}}""")) }
        expect("an object in content is WrongType at /data/x", badData?.kind == ErrorKind.WRONG_TYPE && badData.path == "/data/x", badData)
        val notObject = failure { answerToJson(Answer(id = "r1", ok = true, data = "[1]")) }
        expect("data that is no object is refused at /data", notObject?.path == "/data", notObject)
        val badNumber = failure {
            elicitResultToJson(ElicitResult(action = Action.ACCEPT, content = listOf(ContentEntry("n", ContentValue.Number("NaN")))))
        }
        expect("a number spelt wrong is refused where it is", badNumber?.path == "/content/n", badNumber)
        val contentOnCancel = failure {
            elicitResultToJson(ElicitResult(action = Action.CANCEL, content = emptyList()))
        }
        expect("content on cancel is refused", contentOnCancel?.path == "/content", contentOnCancel)
        val tooDeep = failure { requestFromJson("[[[1]]]", Limits(maxDepth = 2uL)) }
        expect("limits apply", tooDeep?.kind == ErrorKind.TOO_DEEP, tooDeep)
        val notUtf8 = failure { answerFromJsonBytes(byteArrayOf(0x22, 0xff.toByte(), 0x22)) }
        expect("bytes that are not UTF-8 are InvalidUtf8", notUtf8?.kind == ErrorKind.INVALID_UTF8, notUtf8)
    }

    /**
     * The cost of one mapping call from Kotlin, measured after a warm-up; reported, never
     * enforced. `-Dtoolnexus.calls=N` measures over more calls.
     */
    private fun perCallCost() {
        val answer = Answer(id = "r1", ok = true, data = """{"name":"Ada","age":36,"tags":["a","b"]}""")
        val calls = System.getProperty("toolnexus.calls")?.toInt() ?: 10_000
        repeat(calls / 5) { elicitationToRequest(FORM, id = "r1"); answerToElicitResult(answer) }
        val started = System.nanoTime()
        repeat(calls) { elicitationToRequest(FORM, id = "r1") }
        val middle = System.nanoTime()
        repeat(calls) { answerToElicitResult(answer) }
        val ended = System.nanoTime()
        repeat(calls) { formatId(1uL, 2uL) }
        val baseline = System.nanoTime()
        println(
            "api (kotlin): elicitationToRequest %.2f µs/call, answerToElicitResult %.2f µs/call, formatId %.2f µs/call"
                .format(
                    (middle - started) / 1e3 / calls,
                    (ended - middle) / 1e3 / calls,
                    (baseline - ended) / 1e3 / calls,
                )
        )
    }

    fun run(): Boolean {
        formToRequest()
        answerToResult()
        recordsRoundTrip()
        errorsAreExceptions()
        for (failure in failures) println("FAIL $failure")
        println("api (kotlin): $passed passed, ${failures.size} failed")
        if (failures.isEmpty()) perCallCost()
        return failures.isEmpty()
    }
}

fun main() {
    if (!Api.run()) exitProcess(1)
}
