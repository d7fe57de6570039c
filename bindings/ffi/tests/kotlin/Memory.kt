// Memory of the Kotlin binding over many calls: every entry point an app uses, each called
// 100,000 times (the first argument), the resident set size sampled after a warm-up and after
// each entry point, with the JVM's garbage collected first. A leak on the Rust side of a few
// bytes a call shows as megabytes; the run reports every figure and exits with status 1 when
// the RSS grew by more than 32 MiB. Timings are not its business.

import dev.toolnexus.*
import java.io.File
import kotlin.system.exitProcess

object Memory {
    private val SCHEMA = """{"type":"object","properties":{"name":{"type":"string","maxLength":20},""" +
        """"age":{"type":"integer","minimum":18},"plan":{"type":"string","enum":["free","pro"]}},"required":["name"]}"""
    private val PARAMS = """{"mode":"form","message":"Sign up","requestedSchema":$SCHEMA}"""
    private val CONTENT = """{"name":"Ada","age":36,"plan":"pro"}"""
    private val ANSWER = """{"id":"r","ok":true,"data":$CONTENT}"""
    private val ELICIT = """{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":$PARAMS}"""
    private val CALL = """{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"""
    private val NEEDS_INPUT = """{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create",""" +
        """"params":$PARAMS}},"requestState":"s"}"""
    private val CREATED = """{"resultType":"task","taskId":"t1","status":"working","pollIntervalMs":500}"""
    private val ASKING = """{"taskId":"t1","status":"input_required","inputRequests":{"k":{"method":"elicitation/create",""" +
        """"params":$PARAMS}}}"""

    private fun refused(block: () -> Unit) {
        try {
            block()
        } catch (e: ToolnexusException) {
            return
        }
        throw AssertionError("expected a refusal")
    }

    private val form = Form(SCHEMA)
    private val WEB_REQUEST = elicitationToRequest(PARAMS, id = "r")
    private val WEB_POST = "tn-request=r&tn-0=Ada&tn-1=17&tn-2=1&tn-action=accept".toByteArray()
    private val HUGE = "x".repeat(5 * 1024 * 1024)

    val entryPoints: List<Pair<String, () -> Unit>> = listOf(
        "elicitationToRequest" to { elicitationToRequest(PARAMS, id = "r") },
        "elicitationToScreen" to { elicitationToScreen(PARAMS, id = "r").use { } },
        "answerToElicitResultJson" to { answerToElicitResultJson(answerFromJson(ANSWER)) },
        "answerFromJson + answerToElicitResult + elicitResultToJson" to {
            elicitResultToJson(answerToElicitResult(answerFromJson(ANSWER)))
        },
        "checkSchema" to { checkSchema(SCHEMA) },
        "validateContent" to { validateContent(SCHEMA, CONTENT) },
        "Form(schema).fields" to { Form(SCHEMA).use { it.fields() } },
        "form.validate" to { form.validate(CONTENT) },
        "form.parse" to { form.parse("age", "42") },
        "reviewUrl" to { reviewUrl("https://bücher.example/kaufen?x=1") },
        "Session begin + resolve" to {
            Session().use { session ->
                session.begin(PARAMS, id = "r", nowMs = 0uL)
                session.resolve(Answer(id = "r", ok = true, data = CONTENT), nowMs = 0uL)
            }
        },
        "ReverseBridge receive + respond" to {
            ReverseBridge().use { bridge ->
                val elicit = bridge.receive(ELICIT, nowMs = 0uL) as Incoming.Elicit
                bridge.respond(Answer(id = elicit.request.id, ok = false, reason = Reason.Declined), nowMs = 0uL)
            }
        },
        "InputRound start + resolve + retry" to {
            ClientRequest.fromJson(CALL).use { request ->
                InputRound.start(request, NEEDS_INPUT, nowMs = 0uL).use { round ->
                    val asked = round.requests().single()
                    round.resolve(Answer(id = asked.request.id, ok = true, data = CONTENT), nowMs = 0uL)
                    round.retry(RpcId.Number("2"))
                }
            }
        },
        "TaskDriver read + resolve + update" to {
            followTask(CREATED, Era.MODERN, nowMs = 0uL)?.use { driver ->
                val asked = (driver.read(ASKING, nowMs = 1uL) as TaskEvent.InputRequired).requests.single()
                driver.resolve(Answer(id = asked.request.id, ok = true, data = CONTENT), nowMs = 2uL)
                driver.update()?.use { it.toRequest(RpcId.Number("2")) }
            }
        },
        "requestHtml + answerFromPost + the re-render with its exception" to {
            val post = FormPost.Body(WEB_POST)
            val error = try {
                answerFromPost(WEB_REQUEST, post)
                null
            } catch (e: ToolnexusException.Failed) {
                e
            }
            requestHtml(WEB_REQUEST)
            requestHtml(WEB_REQUEST, post = post, error = error ?: throw AssertionError("expected a refusal"))
        },
        "refused: invalid JSON" to { refused { answerFromJson("""{"id":""") } },
        "refused: a record over the size limit" to {
            refused { answerToElicitResult(Answer(id = HUGE, ok = false)) }
        },
    )

    fun rss(): Long {
        repeat(3) { System.gc() }
        val line = File("/proc/self/status").readLines().first { it.startsWith("VmRSS:") }
        return line.split(Regex("\\s+"))[1].toLong() * 1024
    }
}

fun main(args: Array<String>) {
    val calls = args.firstOrNull()?.toInt() ?: 100_000
    for ((_, call) in Memory.entryPoints) repeat(2_000) { call() }
    val warm = Memory.rss()
    println("memory (kotlin): RSS %.1f MiB after a warm-up; %,d calls of each entry point".format(warm / 1048576.0, calls))
    println("| entry point | RSS after | growth since warm-up |")
    println("|---|---|---|")
    var worst = 0L
    for ((name, call) in Memory.entryPoints) {
        // The over-limit record copies 5 MiB a call across the boundary: a hundredth as many.
        val times = if (name.contains("size limit")) calls / 100 else calls
        repeat(times) { call() }
        val now = Memory.rss()
        worst = maxOf(worst, now - warm)
        println("| $name | %.1f MiB | %+,d KiB |".format(now / 1048576.0, (now - warm) / 1024))
    }
    val flat = worst <= 32L * 1024 * 1024
    println("memory (kotlin): ${if (flat) "flat" else "GROWING"}: at most %+,d KiB".format(worst / 1024))
    if (!flat) exitProcess(1)
}
