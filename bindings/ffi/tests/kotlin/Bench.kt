// Benchmark: the cost of a call from Kotlin on the JVM, through JNA, of the library built for apps.
//
// Run by `cargo xtask bench ffi`, which builds the library with the `mobile` profile and passes
// the folder of the core's benchmark payloads. Reported, never enforced: each figure is the
// median of several rounds, so that a busy machine distorts it less.
//
// The first table takes one call apart, through the generated file's internal declarations
// (compiled with it, so in its module): a JNA call alone, what UniFFI adds to each crossing
// (a call status structure), and the crossings a call makes besides its own (one to allocate
// the buffer of each string, record or optional argument, one to free the buffer of the
// result). The second times the entry points a screen uses, over every payload, beside the
// calls that do at once what a screen otherwise does in two or three.

import dev.toolnexus.*
import java.io.File
import kotlin.system.exitProcess

/** Rounds per figure, and the least time a round should take. */
private const val ROUNDS = 7
private const val ROUND_NANOS = 40_000_000L
/** At most this many calls a round, and at least this many. */
private const val MAX_CALLS = 20_000
private const val MIN_CALLS = 20

/**
 * Microseconds per call of `call`: the median over [ROUNDS] rounds, each of as many calls as
 * fill [ROUND_NANOS] (between [MIN_CALLS] and [MAX_CALLS]), after a warm-up as long as a round.
 */
private fun microsPerCall(call: () -> Unit): Double {
    var calls = MIN_CALLS
    while (true) {
        val started = System.nanoTime()
        repeat(calls) { call() }
        val took = System.nanoTime() - started
        if (took >= ROUND_NANOS || calls >= MAX_CALLS) break
        calls = (calls * 2).coerceAtMost(MAX_CALLS)
    }
    val rounds = List(ROUNDS) {
        val started = System.nanoTime()
        repeat(calls) { call() }
        (System.nanoTime() - started) / 1e3 / calls
    }
    return rounds.sorted()[ROUNDS / 2]
}

private fun row(name: String, call: () -> Unit) = println("  %-52s %9.2f".format(name, microsPerCall(call)))

/** What a person leaving every default and picking each first option would send. */
private fun defaultContent(fields: List<FormField>): List<ContentEntry> = fields.mapNotNull { field ->
    val first = field.options.firstOrNull()?.value
    val value = field.defaultValue ?: when {
        first == null -> null
        field.widget == Widget.MULTI_SELECT -> ContentValue.TextList(listOf(first))
        else -> ContentValue.Text(first)
    }
    value?.let { ContentEntry(field.name, it) }
}

fun main(args: Array<String>) {
    val folder = args.firstOrNull()?.let(::File)
    val payloads = folder?.listFiles { f -> f.extension == "json" }?.sortedBy { it.name }
    if (folder == null || payloads.isNullOrEmpty()) {
        System.err.println("bench: give the folder of the payloads (crates/toolnexus-core/benches/payloads)")
        exitProcess(2)
    }
    println("Kotlin (JVM, JNA): median of $ROUNDS rounds of up to ${"%,d".format(MAX_CALLS)} calls, in µs per call.")
    println("One crossing, taken apart:")
    row("a JNA call alone (a checksum function)") { IntegrityCheckingUniffiLib.uniffi_toolnexus_ffi_checksum_func_format_id() }
    row("a call status structure (made on every crossing)") { UniffiRustCallStatus() }
    row("a buffer allocated and freed (two crossings)") { RustBuffer.free(RustBuffer.alloc(16uL)) }
    row("formatId (a call, a string back: the crossing alone)") { formatId(1uL, 2uL) }
    for (file in payloads) {
        val params = file.readText().trim()
        val request = elicitationToRequest(params, id = "elc-1")
        val form = request.form()
        val fields = form.fields()
        // The answer's content: the payload's own when it has one, else the defaults.
        val given = File(folder, "content/${file.name}").takeIf { it.isFile }?.readText()?.trim()
        val contentJson = given ?: contentToJson(defaultContent(fields))
        val answer = Answer(id = "elc-1", ok = true, data = contentJson)
        println("${file.name}: ${params.length} bytes of params, ${fields.size} fields, ${contentJson.length} bytes of content")
        row("elicitationToRequest (JSON text in)") { elicitationToRequest(params, id = "elc-1") }
        row("request.formFields()") { request.formFields() }
        row("form.fields() (a prepared form)") { form.fields() }
        row("elicitationToRequest + request.form() + fields()") {
            elicitationToRequest(params, id = "elc-1").form().use { it.fields() }
        }
        row("elicitationToScreen (the same, one call)") { elicitationToScreen(params, id = "elc-1").use { } }
        row("answerToElicitResult + elicitResultToJson") { elicitResultToJson(answerToElicitResult(answer)) }
        row("answerToElicitResultJson (the same, one call)") { answerToElicitResultJson(answer) }
        form.close()
    }
}
