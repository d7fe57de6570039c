// The shared conformance suite (conformance/v1/) run through the Kotlin API.
//
// Each case's input goes in as a String and, where the API also reads bytes, again as UTF-8
// bytes (bytes that are not UTF-8 only as bytes); the output must be the exact text the case
// gives, errors must have its kind and pointer. Every operation of the suite has a runner here or
// in ContentOps.kt, FormOps.kt, WireOps.kt, HtmlOps.kt and AuthOps.kt: an operation without one, or a runner
// for an operation the suite does not hold, fails the run, and so does a case listed in
// EXPECTED_FAILURES that passes.

import dev.toolnexus.*
import java.io.File
import java.util.Base64
import kotlin.system.exitProcess

/** A case's input: the same JSON as a String or as bytes. */
sealed class Input {
    data class Text(val text: String) : Input()
    class Bytes(val bytes: ByteArray) : Input()

    val shown: String get() = if (this is Text) "String" else "bytes"
}

typealias Case = Map<String, Any?>

/** The object member `key` of a case; an absent one is empty. */
@Suppress("UNCHECKED_CAST")
fun Case.obj(key: String): Map<String, Any?> = this[key] as Map<String, Any?>? ?: emptyMap()

/** How one operation runs through the Kotlin API: JSON in, the exact output text out. */
class Op(val takesBytes: Boolean, val run: (Case, Input, Limits?) -> String)

/** An operation the API offers for JSON text only. */
fun textOp(run: (Case, String, Limits?) -> String): Op = Op(false) { case, input, limits ->
    run(case, (input as Input.Text).text, limits)
}

/** An operation the API offers for JSON text and for bytes. */
fun bytesOp(run: (Case, Input, Limits?) -> String): Op = Op(true, run)

private fun elicitation(case: Case, input: Input, limits: Limits?): String {
    val id = case.obj("args")["id"] as String?
    val request = when (input) {
        is Input.Text -> elicitationToRequest(input.text, id, limits)
        is Input.Bytes -> elicitationToRequestBytes(input.bytes, id, limits)
    }
    return requestToJson(request)
}

private fun answerOf(input: Input, limits: Limits?): Answer = when (input) {
    is Input.Text -> answerFromJson(input.text, limits)
    is Input.Bytes -> answerFromJsonBytes(input.bytes, limits)
}

private fun requestOf(input: Input, limits: Limits?): Request = when (input) {
    is Input.Text -> requestFromJson(input.text, limits)
    is Input.Bytes -> requestFromJsonBytes(input.bytes, limits)
}

private fun elicitResultOf(input: Input, limits: Limits?): ElicitResult = when (input) {
    is Input.Text -> elicitResultFromJson(input.text, limits)
    is Input.Bytes -> elicitResultFromJsonBytes(input.bytes, limits)
}

private fun formatIdCase(case: Case): String {
    val args = case.obj("args")
    return quote(formatId((args["unixMs"] as JsonNumber).toULong(), (args["sequence"] as JsonNumber).toULong()))
}

/** The contract records, the two mappings and request ids. */
val CONTRACT_OPS: Map<String, Op> = mapOf(
    "elicitation_to_request" to bytesOp(::elicitation),
    "answer_to_elicit_result" to bytesOp { _, input, limits ->
        elicitResultToJson(answerToElicitResult(answerOf(input, limits)))
    },
    "request" to bytesOp { _, input, limits -> requestToJson(requestOf(input, limits)) },
    "answer" to bytesOp { _, input, limits -> answerToJson(answerOf(input, limits)) },
    "elicit_result" to bytesOp { _, input, limits -> elicitResultToJson(elicitResultOf(input, limits)) },
    "format_id" to textOp { case, _, _ -> formatIdCase(case) },
)

/** Every operation the runner runs, by the suite's name. */
val OPS: Map<String, Op> = CONTRACT_OPS + CONTENT_OPS + FORM_OPS + WIRE_OPS + HTML_OPS + AUTH_OPS

/** Cases this runner is known to fail, by id, with the reason. Kept here, never in the cases. */
val EXPECTED_FAILURES: Map<Int, String> = mapOf()

fun inputs(case: Case): List<Input> {
    case["inputBase64"]?.let { encoded ->
        val raw = Base64.getDecoder().decode(encoded as String)
        val decoder = Charsets.UTF_8.newDecoder()
        return try {
            listOf(Input.Text(decoder.decode(java.nio.ByteBuffer.wrap(raw)).toString()), Input.Bytes(raw))
        } catch (e: java.nio.charset.CharacterCodingException) {
            listOf(Input.Bytes(raw))
        }
    }
    @Suppress("UNCHECKED_CAST")
    val parts = case["inputParts"] as List<Map<String, Any?>>?
    val text = parts?.joinToString("") { part ->
        val piece = part["text"] as String
        val times = (part["times"] as JsonNumber?)?.toInt() ?: 1
        // `numbered`: `{n}` in each repetition is its index, for distinct keys.
        if (part["numbered"] == true) {
            (0 until times).joinToString("") { n -> piece.replace("{n}", n.toString()) }
        } else {
            piece.repeat(times)
        }
    } ?: when {
        // `inputText` is given as it is; `input`, a JSON value, as its compact text.
        "inputText" in case -> case["inputText"] as String
        "input" in case -> toJson(case["input"])
        else -> ""
    }
    return listOf(Input.Text(text), Input.Bytes(text.toByteArray(Charsets.UTF_8)))
}

fun limitsOf(case: Case): Limits? {
    @Suppress("UNCHECKED_CAST")
    val given = case["limits"] as Map<String, Any?>? ?: return null
    var limits = Limits()
    for ((key, value) in given) {
        val n = (value as JsonNumber).toULong()
        limits = when (key) {
            "maxInputBytes" -> limits.copy(maxInputBytes = n)
            "maxDepth" -> limits.copy(maxDepth = n)
            "maxObjectMembers" -> limits.copy(maxObjectMembers = n)
            "maxArrayItems" -> limits.copy(maxArrayItems = n)
            else -> error("unknown limit $key")
        }
    }
    return limits
}

/** A thrown error's kind and pointer as the suite names them, with its text; null for any other exception. */
fun named(error: Exception): Triple<String, String, String>? = when (error) {
    is ToolnexusException.Failed -> Triple(error.kind.asStr(), error.pointer, error.detail)
    is AuthException.Failed -> Triple(error.kind.asStr(), error.pointer, error.detail)
    is AuthException.Invalid -> Triple(error.kind.asStr(), error.pointer, error.detail)
    else -> null
}

/** Why the case fails, or null when it passes. */
fun check(case: Case): String? {
    val op = OPS[case["op"] as String] ?: return "no runner for ${case["op"]}"
    val limits = limitsOf(case)
    val expect = case.obj("expect")
    @Suppress("UNCHECKED_CAST")
    val want = expect["error"] as Map<String, Any?>?
    val wanted = if (want == null) "output ${expect["output"]}" else "error ${want["kind"]} at '${want["pointer"]}'"
    val given = inputs(case).filter { op.takesBytes || it is Input.Text }
    if (given.isEmpty()) return "the input is not UTF-8 and the operation takes text only"
    for (input in given) {
        val output = try {
            op.run(case, input, limits)
        } catch (error: Exception) {
            val (kind, pointer, detail) = named(error) ?: throw error
            if (want == null || kind != want["kind"] || pointer != want["pointer"]) {
                return "(${input.shown}) expected $wanted\n    got $kind at '$pointer': $detail"
            }
            continue
        }
        if (want != null) return "(${input.shown}) expected $wanted\n    got output ${output.take(200)}"
        if (output != expect["output"]) {
            return "(${input.shown}) output differs\n    want: ${expect["output"]}\n    got:  $output"
        }
    }
    return null
}

data class Loaded(val path: String, val case: Case) {
    val id: Int get() = (case["id"] as JsonNumber).toInt()
    val shown: String get() = "#$id ${case["description"]} ($path)"
}

/**
 * Areas of the suite this runner does not run yet, with the reason, each announced on every run:
 * the whole area is left out, never a case here and there.
 */
val AREAS_NOT_RUN: Map<String, String> = mapOf()

fun loadSuite(suite: File): List<Loaded> {
    val files = (suite.listFiles() ?: emptyArray())
        .filter { it.isDirectory }
        .filter { dir ->
            val why = AREAS_NOT_RUN[dir.name] ?: return@filter true
            println("conformance (kotlin): area ${dir.name} not run: $why")
            false
        }
        .flatMap { dir -> (dir.listFiles() ?: emptyArray()).filter { it.name.endsWith(".json") } }
        .sortedBy { it.relativeTo(suite).path }
    check(files.isNotEmpty()) { "no case files under $suite" }
    return files.flatMap { file ->
        val doc = parseJson(file.readText(Charsets.UTF_8)).asObject() ?: error("$file holds no object")
        @Suppress("UNCHECKED_CAST")
        (doc["cases"] as List<Case>).map { Loaded(file.relativeTo(suite).path, it) }
    }
}

/** What is wrong with the runner itself: operations without a runner, runners without an operation. */
fun problemsWith(loaded: List<Loaded>): List<String> {
    val inSuite = loaded.map { it.case["op"] as String }.toSet()
    val ids = loaded.map { it.id }.toSet()
    val problems = mutableListOf<String>()
    val unrun = inSuite - OPS.keys
    val stale = OPS.keys - inSuite
    val gone = EXPECTED_FAILURES.keys - ids
    if (unrun.isNotEmpty()) problems += "ops in the suite without a Kotlin runner: ${unrun.sorted()}"
    if (stale.isNotEmpty()) problems += "runners for ops the suite does not hold: ${stale.sorted()}"
    if (gone.isNotEmpty()) problems += "expected failures that are no case of the suite: $gone"
    return problems
}

fun main(args: Array<String>) {
    val suite = File(args.singleOrNull() ?: error("usage: ConformanceKt <conformance/v1 folder>"))
    val loaded = loadSuite(suite)
    val problems = problemsWith(loaded)
    var passed = 0
    var known = 0
    val failures = mutableListOf<String>()
    for (case in loaded) {
        val why = try {
            check(case.case)
        } catch (e: Exception) {
            "threw ${e::class.qualifiedName}: ${e.message}"
        }
        val expectedToFail = case.id in EXPECTED_FAILURES
        when {
            why == null && !expectedToFail -> passed++
            why != null && expectedToFail -> known++
            why == null -> failures += "${case.shown}: listed in EXPECTED_FAILURES but passes"
            else -> failures += "${case.shown}\n    $why"
        }
    }
    for (failure in failures) println("FAIL $failure")
    for (problem in problems) println("ERROR $problem")
    if (known > 0) println("conformance (kotlin): $known known failures listed in EXPECTED_FAILURES")
    println("conformance (kotlin): $passed passed, ${failures.size} failed")
    if (passed == 0 || failures.isNotEmpty() || problems.isNotEmpty()) exitProcess(1)
}
