// Benchmark: the cost of a call from Kotlin on the JVM, through JNA, of the library built for apps.
//
// Run by `cargo xtask bench ffi`, which builds the library with the `mobile` profile and passes
// the folder of the core's benchmark payloads. Reported, never enforced: each figure is the
// median of several rounds, so that a busy machine distorts it less.

import dev.toolnexus.*
import java.io.File
import kotlin.system.exitProcess

/** Calls per timed round, and rounds per figure. */
private const val CALLS = 20_000
private const val ROUNDS = 7

/** Microseconds per call of `call`: the median over [ROUNDS] rounds of [CALLS] calls. */
private fun microsPerCall(call: () -> Unit): Double {
    repeat(CALLS) { call() }
    val rounds = List(ROUNDS) {
        val started = System.nanoTime()
        repeat(CALLS) { call() }
        (System.nanoTime() - started) / 1e3 / CALLS
    }
    return rounds.sorted()[ROUNDS / 2]
}

fun main(args: Array<String>) {
    val payloads = args.firstOrNull()?.let(::File)?.listFiles { f -> f.extension == "json" }?.sortedBy { it.name }
    if (payloads.isNullOrEmpty()) {
        System.err.println("bench: give the folder of the payloads (crates/toolnexus-core/benches/payloads)")
        exitProcess(2)
    }
    println("Median of $ROUNDS rounds of ${"%,d".format(CALLS)} calls each, in µs per call.")
    // Next to no work on the Rust side: what any call pays to cross into the library.
    println("  %-44s %8.2f".format("formatId (the crossing alone)", microsPerCall { formatId(1uL, 2uL) }))
    for (file in payloads) {
        val params = file.readText().trim()
        val request = elicitationToRequest(params, id = "elc-1")
        val fields = request.formFields()
        // What a person leaving every default and picking each first option would send.
        val content = fields.mapNotNull { field ->
            val first = field.options.firstOrNull()?.value
            val value = field.defaultValue ?: when {
                first == null -> null
                field.widget == Widget.MULTI_SELECT -> ContentValue.TextList(listOf(first))
                else -> ContentValue.Text(first)
            }
            value?.let { ContentEntry(field.name, it) }
        }
        val answer = Answer(id = "elc-1", ok = true, data = contentToJson(content))
        println("${file.name}: ${params.length} bytes of params, ${fields.size} fields")
        println("  %-44s %8.2f".format("elicitationToRequest (JSON text in)", microsPerCall { elicitationToRequest(params, id = "elc-1") }))
        println("  %-44s %8.2f".format("request.formFields()", microsPerCall { request.formFields() }))
        println("  %-44s %8.2f".format("answerToElicitResult + elicitResultToJson", microsPerCall { elicitResultToJson(answerToElicitResult(answer)) }))
    }
}
