// The shared conformance suite (conformance/v1/) run through the Kotlin API.
//
// Each case's input goes in as a String and again as UTF-8 bytes (bytes that are not UTF-8
// only as bytes); the output must be the exact text the case gives, errors must have its kind
// and path. Operations the Kotlin API does not offer yet are listed in NOT_COVERED and
// counted; the suite must hold exactly those, so none is skipped unnoticed.

import dev.toolnexus.*
import java.io.File
import java.util.Base64
import kotlin.system.exitProcess

/** A JSON number, kept as it was spelt. */
data class JsonNumber(val spelling: String)

/** A small reader of JSON text: objects keep their member order, numbers their spelling. */
class JsonReader(private val text: String) {
    private var at = 0

    fun readDocument(): Any? {
        val value = readValue()
        skipSpace()
        require(at == text.length) { "trailing characters at $at" }
        return value
    }

    private fun readValue(): Any? {
        skipSpace()
        require(at < text.length) { "unexpected end of JSON" }
        return when (val c = text[at]) {
            '{' -> readObject()
            '[' -> readArray()
            '"' -> readString()
            't' -> literal("true", true)
            'f' -> literal("false", false)
            'n' -> literal("null", null)
            else -> if (c == '-' || c.isDigit()) readNumber() else error("unexpected '$c' at $at")
        }
    }

    private fun readObject(): Map<String, Any?> {
        val members = LinkedHashMap<String, Any?>()
        at++
        skipSpace()
        if (peek() == '}') { at++; return members }
        while (true) {
            skipSpace()
            val key = readString()
            skipSpace()
            expect(':')
            members[key] = readValue()
            skipSpace()
            if (peek() == ',') { at++; continue }
            expect('}')
            return members
        }
    }

    private fun readArray(): List<Any?> {
        val items = ArrayList<Any?>()
        at++
        skipSpace()
        if (peek() == ']') { at++; return items }
        while (true) {
            items.add(readValue())
            skipSpace()
            if (peek() == ',') { at++; continue }
            expect(']')
            return items
        }
    }

    private fun readString(): String {
        expect('"')
        val out = StringBuilder()
        while (true) {
            require(at < text.length) { "unterminated string" }
            val c = text[at++]
            when (c) {
                '"' -> return out.toString()
                '\\' -> {
                    val e = text[at++]
                    when (e) {
                        '"', '\\', '/' -> out.append(e)
                        'b' -> out.append('\b')
                        'f' -> out.append('\u000C')
                        'n' -> out.append('\n')
                        'r' -> out.append('\r')
                        't' -> out.append('\t')
                        'u' -> { out.append(text.substring(at, at + 4).toInt(16).toChar()); at += 4 }
                        else -> error("bad escape \\$e at $at")
                    }
                }
                else -> out.append(c)
            }
        }
    }

    private fun readNumber(): JsonNumber {
        val start = at
        while (at < text.length && text[at] in "+-0123456789.eE") at++
        return JsonNumber(text.substring(start, at))
    }

    private fun literal(word: String, value: Any?): Any? {
        require(text.startsWith(word, at)) { "unexpected text at $at" }
        at += word.length
        return value
    }

    private fun peek(): Char? = text.getOrNull(at)

    private fun expect(c: Char) {
        require(peek() == c) { "expected '$c' at $at" }
        at++
    }

    private fun skipSpace() {
        while (at < text.length && text[at] in " \t\r\n") at++
    }
}

/** A case's input: the same JSON as a String or as bytes. */
sealed class Input {
    data class Text(val text: String) : Input()
    class Bytes(val bytes: ByteArray) : Input()

    val shown: String get() = if (this is Text) "String" else "bytes"
}

typealias Case = Map<String, Any?>

@Suppress("UNCHECKED_CAST")
fun Case.obj(key: String): Map<String, Any?> = this[key] as Map<String, Any?>

fun quote(text: String): String = buildString {
    append('"')
    for (c in text) {
        when {
            c == '"' -> append("\\\"")
            c == '\\' -> append("\\\\")
            c < ' ' -> append("\\u%04x".format(c.code))
            else -> append(c)
        }
    }
    append('"')
}

fun elicitation(case: Case, input: Input, limits: Limits?): String {
    val id = case.obj("args")["id"] as String?
    val request = when (input) {
        is Input.Text -> elicitationToRequest(input.text, id, limits)
        is Input.Bytes -> elicitationToRequestBytes(input.bytes, id, limits)
    }
    return requestToJson(request)
}

fun answerOf(input: Input, limits: Limits?): Answer = when (input) {
    is Input.Text -> answerFromJson(input.text, limits)
    is Input.Bytes -> answerFromJsonBytes(input.bytes, limits)
}

fun formatIdCase(case: Case): String {
    val args = case.obj("args")
    val unixMs = (args["unixMs"] as JsonNumber).spelling.toULong()
    val sequence = (args["sequence"] as JsonNumber).spelling.toULong()
    return quote(formatId(unixMs, sequence))
}

/** How each operation runs through the Kotlin API: JSON text in, JSON text out. */
val RUNNERS: Map<String, (Case, Input, Limits?) -> String> = mapOf(
    "elicitation_to_request" to ::elicitation,
    "answer_to_elicit_result" to { _, input, limits ->
        elicitResultToJson(answerToElicitResult(answerOf(input, limits)))
    },
    "request" to { _, input, limits ->
        requestToJson(
            when (input) {
                is Input.Text -> requestFromJson(input.text, limits)
                is Input.Bytes -> requestFromJsonBytes(input.bytes, limits)
            }
        )
    },
    "answer" to { _, input, limits -> answerToJson(answerOf(input, limits)) },
    "elicit_result" to { _, input, limits ->
        elicitResultToJson(
            when (input) {
                is Input.Text -> elicitResultFromJson(input.text, limits)
                is Input.Bytes -> elicitResultFromJsonBytes(input.bytes, limits)
            }
        )
    },
    "format_id" to { case, _, _ -> formatIdCase(case) },
)

/** Operations of the suite the Kotlin API does not offer yet, with why. */
val NOT_COVERED: Map<String, String> = mapOf(
    "apply_defaults" to "content defaults are not exported yet",
    "check_schema" to "schema checks are not exported yet",
    "form_fields" to "the form model is not exported yet",
    "mrtr" to "the multi round-trip helpers are not exported yet",
    "parse_field_input" to "the form model is not exported yet",
    "prepare_content" to "content checks are not exported yet",
    "reject_secrets" to "secret-field checks are not exported yet",
    "reverse_request" to "the JSON-RPC wire is not exported yet",
    "review_url" to "URL review is not exported yet",
    "sensitive_fields" to "secret-field checks are not exported yet",
    "session" to "the session is not exported yet",
    "validate_content" to "content checks are not exported yet",
)

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
        (part["text"] as String).repeat((part["times"] as JsonNumber?)?.spelling?.toInt() ?: 1)
    } ?: (case["input"] as String? ?: "")
    return listOf(Input.Text(text), Input.Bytes(text.toByteArray(Charsets.UTF_8)))
}

fun limitsOf(case: Case): Limits? {
    @Suppress("UNCHECKED_CAST")
    val given = case["limits"] as Map<String, Any?>? ?: return null
    var limits = Limits()
    for ((key, value) in given) {
        val n = (value as JsonNumber).spelling.toULong()
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

/** Why the case fails, or null when it passes. */
fun check(case: Case): String? {
    val run = RUNNERS.getValue(case["op"] as String)
    val limits = limitsOf(case)
    val expect = case.obj("expect")
    @Suppress("UNCHECKED_CAST")
    val want = expect["error"] as Map<String, Any?>?
    for (input in inputs(case)) {
        val output = try {
            run(case, input, limits)
        } catch (error: ToolnexusException.Failed) {
            if (want == null) {
                return "(${input.shown}) expected output ${expect["output"]}\n    got ${errorKindName(error.kind)} at '${error.path}': ${error.detail}"
            }
            val kind = errorKindName(error.kind)
            if (kind != want["kind"] || error.path != want["pointer"]) {
                return "(${input.shown}) expected error ${want["kind"]} at '${want["pointer"]}'\n" +
                    "    got $kind at '${error.path}': ${error.detail}"
            }
            continue
        }
        if (want != null) {
            return "(${input.shown}) expected error ${want["kind"]} at '${want["pointer"]}'\n    got output ${output.take(200)}"
        }
        if (output != expect["output"]) {
            return "(${input.shown}) output differs\n    want: ${expect["output"]}\n    got:  $output"
        }
    }
    return null
}

data class Loaded(val path: String, val case: Case)

fun loadSuite(suite: File): List<Loaded> {
    val files = (suite.listFiles() ?: emptyArray())
        .filter { it.isDirectory }
        .flatMap { dir -> (dir.listFiles() ?: emptyArray()).filter { it.name.endsWith(".json") } }
        .sortedBy { it.relativeTo(suite).path }
    check(files.isNotEmpty()) { "no case files under $suite" }
    return files.flatMap { file ->
        @Suppress("UNCHECKED_CAST")
        val doc = JsonReader(file.readText(Charsets.UTF_8)).readDocument() as Map<String, Any?>
        @Suppress("UNCHECKED_CAST")
        (doc["cases"] as List<Case>).map { Loaded(file.relativeTo(suite).path, it) }
    }
}

fun main(args: Array<String>) {
    val suite = File(args.singleOrNull() ?: error("usage: ConformanceKt <conformance/v1 folder>"))
    val loaded = loadSuite(suite)
    val inSuite = loaded.map { it.case["op"] as String }.toSet()
    val problems = mutableListOf<String>()
    val unlisted = inSuite - RUNNERS.keys - NOT_COVERED.keys
    val stale = (RUNNERS.keys + NOT_COVERED.keys) - inSuite
    val both = RUNNERS.keys intersect NOT_COVERED.keys
    if (unlisted.isNotEmpty()) problems += "ops in the suite the Kotlin runner neither runs nor lists: $unlisted"
    if (stale.isNotEmpty()) problems += "ops run or listed but not in the suite: $stale"
    if (both.isNotEmpty()) problems += "ops both run and listed as not covered: $both"

    var passed = 0
    var notCovered = 0
    val failures = mutableListOf<String>()
    for ((path, case) in loaded) {
        if (case["op"] in NOT_COVERED) { notCovered++; continue }
        val why = try {
            check(case)
        } catch (e: Exception) {
            "threw ${e::class.simpleName}: ${e.message}"
        }
        if (why == null) passed++ else failures += "#${(case["id"] as JsonNumber).spelling} ${case["description"]} ($path)\n    $why"
    }
    for (failure in failures) println("FAIL $failure")
    for (problem in problems) println("ERROR $problem")
    val uncovered = if (NOT_COVERED.isEmpty()) "" else " (ops: ${NOT_COVERED.keys.sorted().joinToString(", ")})"
    println("conformance (kotlin): $passed passed, ${failures.size} failed, $notCovered not covered$uncovered")
    if (passed == 0 || failures.isNotEmpty() || problems.isNotEmpty()) exitProcess(1)
}
