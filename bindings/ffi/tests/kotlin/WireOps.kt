// The suite's scripted operations (session, reverse_request, mrtr, task, snapshot) run through
// the Kotlin API.
//
// A script is read by the library (so its faults are the library's errors) and then walked
// here; values a step hands to the API go back in as JSON text that keeps member order and
// number spelling. Each step's outcome is {"ok": value} or {"error": {"kind", "pointer",
// "violations"?}}; records come out through their toJson functions, so their bytes are pinned.

import dev.toolnexus.*

/** The case's script is not one the runner can run: a fault of the case, not of the API. */
class BrokenScript(message: String) : Exception(message)

/** A script as the runner walks it: its options and its steps. */
class Script(val options: Map<String, Any?>, val steps: List<Map<String, Any?>>)

/** Reads a script within `limits`: the library checks the text, then the runner reads it. */
fun readScript(text: String, limits: Limits?): Script {
    val script = parseJson(compactJson(text, limits)).asObject() ?: throw BrokenScript("the script is no object")
    val steps = (script["steps"] as? List<*>)?.map { it.asObject() ?: throw BrokenScript("a step is no object: $it") }
        ?: throw BrokenScript("the script has no steps")
    return Script(script["options"].asObject() ?: emptyMap(), steps)
}

/** The modes a script's `modes` option names, as the library reads the name. */
fun modesOf(name: Any?): Modes = modesFromName(name as? String ?: throw BrokenScript("modes must be a name, not $name"))

/** A script's `options` as the session's. */
fun sessionOptionsOf(options: Map<String, Any?>): SessionOptions {
    var made = SessionOptions()
    for ((key, value) in options) {
        made = when (key) {
            "modes" -> made.copy(modes = modesOf(value))
            "maxPending" -> made.copy(maxPending = (value as JsonNumber).toULong())
            "ttlMs" -> made.copy(ttlMs = (value as JsonNumber).toULong())
            "applyDefaults" -> made.copy(applyDefaults = value as Boolean)
            "allowUnknown" -> made.copy(allowUnknown = value as Boolean)
            "rejectSecrets" -> made.copy(rejectSecrets = value as Boolean)
            else -> throw BrokenScript("unknown option $key")
        }
    }
    return made
}

/** A step's `now` in milliseconds; 0 when absent (never the clock, which would not repeat). */
fun nowOf(step: Map<String, Any?>): ULong = (step["now"] as JsonNumber?)?.toULong() ?: 0uL

fun ok(value: Any?): Map<String, Any?> = mapOf("ok" to value)

/** The outcome of a step that threw. */
fun failed(error: ToolnexusException.Failed): MutableMap<String, Any?> {
    val described = linkedMapOf<String, Any?>("kind" to error.kind.asStr(), "pointer" to error.pointer)
    if (error.violations.isNotEmpty()) described["violations"] = violationsJson(error.violations)
    return linkedMapOf("error" to described)
}

/** `{"ok": step()}`, or the error it threw. */
inline fun outcome(step: () -> Any?): Map<String, Any?> = try {
    ok(step())
} catch (error: ToolnexusException.Failed) {
    failed(error)
}

fun requestJson(request: Request): RawJson = RawJson(requestToJson(request))

fun resultJson(result: ElicitResult): RawJson = RawJson(elicitResultToJson(result))

/** An answer a step carries, read by the library from its JSON text. */
fun answerIn(value: Any?): Answer = answerFromJson(toJson(value))

fun cancelled(requests: List<CancelledRequest>): List<Map<String, Any?>> =
    requests.map { mapOf("id" to it.id, "result" to resultJson(it.result)) }

// The elicitation session.

internal fun sessionStep(session: Session, step: Map<String, Any?>): Map<String, Any?> = when {
    "begin" in step -> outcome {
        val id = step["id"] as String? ?: throw BrokenScript("begin without an id")
        requestJson(session.begin(toJson(step["begin"]), id, nowOf(step)))
    }
    "resolve" in step -> outcome { resultJson(session.resolve(answerIn(step["resolve"]), nowOf(step))) }
    "pending" in step -> ok(session.pending().map { it.id })
    "awaiting" in step -> ok(
        session.awaitingCompletion().map { mapOf("requestId" to it.requestId, "elicitationId" to it.elicitationId) },
    )
    "complete" in step -> ok(session.complete(step["complete"] as String))
    "expire" in step -> ok(cancelled(session.expire((step["expire"] as JsonNumber).toULong())))
    "cancelAll" in step -> ok(cancelled(session.cancelAll()))
    else -> throw BrokenScript("unknown step ${toJson(step)}")
}

private fun runSession(text: String, limits: Limits?): String {
    val script = readScript(text, limits)
    return Session(sessionOptionsOf(script.options)).use { session ->
        toJson(script.steps.map { sessionStep(session, it) })
    }
}

// The 2025 JSON-RPC wire.

/** A JSON-RPC id as JSON: what the library writes for it. */
fun rpcIdJson(id: RpcId): RawJson = RawJson(rpcIdToJson(id))

/** What a received message asks of the host, keyed by its type. */
private fun incomingJson(incoming: Incoming): Map<String, Any?> = when (incoming) {
    is Incoming.Elicit -> mapOf("elicit" to mapOf("rpcId" to rpcIdJson(incoming.rpcId), "request" to requestJson(incoming.request)))
    is Incoming.Reply -> mapOf("reply" to incoming.response)
    is Incoming.Completed -> mapOf(
        "completed" to buildMap {
            put("requestId", incoming.requestId)
            incoming.reply?.let { put("reply", it) }
        },
    )
    is Incoming.Withdrawn -> mapOf("withdrawn" to incoming.requestId)
    is Incoming.Ignored -> mapOf("ignored" to incoming.why.asStr())
}

private fun pendingJson(pending: PendingElicitation): Map<String, Any?> = buildMap {
    put("requestId", pending.request.id)
    pending.rpcId?.let { put("rpcId", rpcIdJson(it)) }
}

private fun reverseStep(bridge: ReverseBridge, step: Map<String, Any?>, limits: Limits?): Map<String, Any?> {
    val now = nowOf(step)
    return when {
        "receive" in step -> ok(incomingJson(bridge.receive(step["receive"] as String, now, limits)))
        "answer" in step -> outcome { bridge.respond(answerIn(step["answer"]), now) }
        "fail" in step -> outcome { bridge.fail(step["fail"] as String, step["message"] as String?) }
        "urlRequired" in step -> outcome { bridge.urlRequired(step["urlRequired"] as String, now, limits).map(::requestJson) }
        "cancelAll" in step -> ok(bridge.cancelAll())
        "expire" in step -> ok(bridge.expire((step["expire"] as JsonNumber).toULong()))
        "capabilities" in step -> ok(RawJson(bridge.capabilities()))
        "pending" in step -> ok(bridge.pending().map(::pendingJson))
        else -> throw BrokenScript("unknown step ${toJson(step)}")
    }
}

/** The script is read within the default limits; the case's apply to the messages it carries. */
private fun runReverse(text: String, limits: Limits?): String {
    val script = readScript(text, null)
    return ReverseBridge(sessionOptionsOf(script.options)).use { bridge ->
        toJson(script.steps.map { reverseStep(bridge, it, limits) })
    }
}

// The 2026-07-28 multi round-trip.

private fun keyedJson(keyed: KeyedResult): Map<String, Any?> = mapOf("key" to keyed.key, "result" to resultJson(keyed.result))

/** A request id as a script gives it: a string, or a number as spelt. */
private fun rpcIdOf(value: Any?): RpcId = when (value) {
    is String -> RpcId.Text(value)
    is JsonNumber -> RpcId.Number(value.spelling)
    else -> throw BrokenScript("a request id is a string or a number, not ${toJson(value)}")
}

/** An error outcome of a `start` or `again` step, saying which text its pointer is in. */
private fun located(error: ToolnexusException.Failed, text: String): Map<String, Any?> =
    failed(error).also { it.error()["in"] = text }

@Suppress("UNCHECKED_CAST")
private fun MutableMap<String, Any?>.error(): MutableMap<String, Any?> = this["error"] as MutableMap<String, Any?>

/** One `mrtr` script's state: its options, the current round and the last retry written. */
private class MrtrScript(options: Map<String, Any?>, private val limits: Limits?) : AutoCloseable {
    private val sessionOptions = sessionOptionsOf(options)
    private var round: InputRound? = null
    private var lastRetry: String? = null

    private fun current(): InputRound = round ?: throw BrokenScript("no round was started")

    fun step(step: Map<String, Any?>): Map<String, Any?> {
        val now = nowOf(step)
        return when {
            "start" in step -> start(step["start"].asObject() ?: throw BrokenScript("start is no object"), now)
            "again" in step -> begun { current().nextRound(step["again"] as String, now, limits) }
            "answer" in step -> outcome { keyedJson(current().resolve(answerIn(step["answer"]), now)) }
            "supply" in step -> {
                val supply = step["supply"].asObject() ?: throw BrokenScript("supply is no object")
                outcome { current().supply(supply["key"] as String, toJson(supply["result"]), limits); null }
            }
            "retry" in step -> retry(step["retry"].asObject() ?: throw BrokenScript("retry is no object"))
            "stamp" in step -> outcome { withClientCapabilities(step["stamp"] as String, sessionOptions.modes, limits) }
            "classify" in step -> outcome { classified(classifyResult(step["classify"] as String, limits)) }
            "missing" in step -> ok(current().missing())
            "pending" in step -> ok(current().pending().map { it.key })
            "expire" in step -> ok(current().expire((step["expire"] as JsonNumber).toULong()).map(::keyedJson))
            "cancelPending" in step -> ok(current().cancelPending().map(::keyedJson))
            else -> throw BrokenScript("unknown step ${toJson(step)}")
        }
    }

    private fun start(start: Map<String, Any?>, now: ULong): Map<String, Any?> {
        val text = start["request"] as String? ?: lastRetry ?: throw BrokenScript("start without `request` needs an earlier retry")
        val response = start["response"] as String
        val request = try {
            ClientRequest.fromJson(text, limits)
        } catch (error: ToolnexusException.Failed) {
            return located(error, "request")
        }
        return request.use { begun { InputRound.start(it, response, sessionOptions, now, limits) } }
    }

    /** The outcome of starting a round; a round started replaces the current one. */
    private fun begun(start: () -> InputRound): Map<String, Any?> {
        val started = try {
            start()
        } catch (error: ToolnexusException.Failed) {
            return located(error, "response")
        }
        round?.close()
        round = started
        return ok(
            mapOf(
                "requests" to started.requests().map { mapOf("key" to it.key, "request" to requestJson(it.request)) },
                "unhandled" to started.unhandled().map { mapOf("key" to it.key, "method" to it.method) },
                "requestState" to (started.requestState() != null),
            ),
        )
    }

    private fun retry(retry: Map<String, Any?>): Map<String, Any?> {
        val round = current()
        val missing = round.missing()
        val text = try {
            round.retry(rpcIdOf(retry["id"]), retry["partial"] as Boolean? ?: false)
        } catch (error: ToolnexusException.Failed) {
            return failed(error).also { if (error.kind == ErrorKind.MISSING_RESPONSES) it.error()["missing"] = missing }
        }
        lastRetry = text
        return ok(text)
    }

    override fun close() {
        round?.close()
    }
}

private fun classified(result: ServerResult): Any = when (result) {
    is ServerResult.Complete -> "complete"
    is ServerResult.NeedsInput -> "input_required"
    is ServerResult.Unknown -> mapOf("unknown" to result.resultType)
}

private fun runMrtr(text: String, limits: Limits?): String {
    val script = readScript(text, limits)
    return MrtrScript(script.options, limits).use { mrtr -> toJson(script.steps.map(mrtr::step)) }
}

// Tasks, in either era.

private fun eraOf(name: Any?): Era = when (name) {
    "modern" -> Era.MODERN
    "handshake" -> Era.HANDSHAKE
    else -> throw BrokenScript("an era is \"modern\" or \"handshake\", not ${toJson(name)}")
}

private fun eraName(era: Era): String = when (era) {
    Era.MODERN -> "modern"
    Era.HANDSHAKE -> "handshake"
}

/** A task with the suite's names, absent members left out. */
private fun taskJson(task: TaskInfo): Map<String, Any?> = buildMap {
    put("taskId", task.taskId)
    put("status", task.status.asStr())
    task.statusMessage?.let { put("statusMessage", it) }
    task.createdAt?.let { put("createdAt", it) }
    task.lastUpdatedAt?.let { put("lastUpdatedAt", it) }
    task.ttlMs?.let { put("ttlMs", it) }
    task.pollIntervalMs?.let { put("pollIntervalMs", it) }
}

private fun stateJson(driver: TaskDriver): Map<String, Any?> = mapOf(
    "task" to taskJson(driver.task()),
    "era" to eraName(driver.era()),
    "done" to driver.isDone(),
    "pollIntervalMs" to driver.pollIntervalMs(),
    "nextPollAt" to driver.nextPollAt(),
    "changedAt" to driver.changedAt(),
    "shown" to driver.shown(),
    "sent" to driver.sent(),
)

private fun eventJson(event: TaskEvent): Map<String, Any?> = when (event) {
    is TaskEvent.Working -> mapOf("kind" to "working", "changed" to event.changed)
    is TaskEvent.InputRequired -> mapOf(
        "kind" to "input_required",
        "requests" to event.requests.map { mapOf("key" to it.key, "request" to requestJson(it.request)) },
    )
    is TaskEvent.Completed -> buildMap {
        put("kind", "completed")
        event.resultJson?.let { put("result", RawJson(it)) }
    }
    is TaskEvent.Failed -> buildMap {
        put("kind", "failed")
        event.errorJson?.let { put("error", RawJson(it)) }
    }
    is TaskEvent.Cancelled -> mapOf("kind" to "cancelled")
}

/** One `task` script's state: its options and the driver following the task. */
private class TaskScript(options: Map<String, Any?>, private val limits: Limits?) : AutoCloseable {
    private val sessionOptions = sessionOptionsOf(options)
    private var driver: TaskDriver? = null

    private fun current(): TaskDriver = driver ?: throw BrokenScript("no task was started")

    /** The request `call` writes with the step's `id`; the call is freed at once. */
    private fun written(call: TaskCall, id: Any?): String = call.use { it.toRequest(rpcIdOf(id)) }

    fun step(step: Map<String, Any?>): Map<String, Any?> {
        val now = nowOf(step)
        return when {
            "start" in step -> start(step["start"].asObject() ?: throw BrokenScript("start is no object"), now)
            "meta" in step -> outcome { current().setMeta(toJson(step["meta"]), limits); null }
            "poll" in step -> outcome { eventJson(current().read(step["poll"] as String, now, limits)) }
            "answer" in step -> outcome { keyedJson(current().resolve(answerIn(step["answer"]), now)) }
            "supply" in step -> {
                val supply = step["supply"].asObject() ?: throw BrokenScript("supply is no object")
                outcome { current().supply(supply["key"] as String, toJson(supply["result"]), limits); null }
            }
            "update" in step -> {
                val update = step["update"].asObject() ?: throw BrokenScript("update is no object")
                outcome { current().update(update["partial"] as Boolean? ?: false)?.let { written(it, update["id"]) } }
            }
            "get" in step -> outcome { written(current().get(), step["get"]) }
            "cancel" in step -> outcome { written(current().cancel(), step["cancel"]) }
            "result" in step -> outcome { written(current().result(), step["result"]) }
            "pending" in step -> ok(current().pending().map { it.key })
            "unhandled" in step -> ok(current().unhandled().map { mapOf("key" to it.key, "method" to it.method) })
            "expire" in step -> ok(current().expire((step["expire"] as JsonNumber).toULong()).map(::keyedJson))
            "cancelPending" in step -> ok(current().cancelPending().map(::keyedJson))
            "state" in step -> ok(stateJson(current()))
            "due" in step -> ok(current().pollDue((step["due"] as JsonNumber).toULong()))
            else -> throw BrokenScript("unknown step ${toJson(step)}")
        }
    }

    /** Follows the task the response hands over; a driver started replaces the current one. */
    private fun start(start: Map<String, Any?>, now: ULong): Map<String, Any?> = outcome {
        val started = followTask(start["response"] as String, eraOf(start["era"]), sessionOptions, now, limits)
        driver?.close()
        driver = started
        started?.let(::stateJson)
    }

    override fun close() {
        driver?.close()
    }
}

private fun runTask(text: String, limits: Limits?): String {
    val script = readScript(text, limits)
    return TaskScript(script.options, limits).use { task -> toJson(script.steps.map(task::step)) }
}

// Snapshots of a round or of a session's pending request, and their restores.

/** A `restore` step's snapshot (absent: the last one written) and keys, as bytes. */
private fun restoreArgs(restore: Map<String, Any?>, last: ByteArray?): Pair<ByteArray, List<ByteArray>> {
    val snapshot = (restore["snapshot"] as String?)?.toByteArray(Charsets.UTF_8)
        ?: last ?: throw BrokenScript("restore without `snapshot` needs one written before")
    @Suppress("UNCHECKED_CAST")
    val keys = (restore["keys"] as List<String>? ?: emptyList()).map { it.toByteArray(Charsets.UTF_8) }
    return snapshot to keys
}

/** A `snapshot` step's key, as bytes, if it gives one. */
private fun keyOf(snapshot: Map<String, Any?>): ByteArray? = (snapshot["key"] as String?)?.toByteArray(Charsets.UTF_8)

/** A `snapshot` script about a round: its options, the current round and the last snapshot written. */
private class RoundSnapshotScript(options: Map<String, Any?>, private val limits: Limits?) : AutoCloseable {
    private val sessionOptions = sessionOptionsOf(options)
    private var round: InputRound? = null
    private var last: ByteArray? = null

    private fun current(): InputRound = round ?: throw BrokenScript("no round was started or restored")

    fun step(step: Map<String, Any?>): Map<String, Any?> {
        val now = nowOf(step)
        return when {
            "start" in step -> {
                val start = step["start"].asObject() ?: throw BrokenScript("start is no object")
                begun {
                    ClientRequest.fromJson(start["request"] as String).use {
                        InputRound.start(it, start["response"] as String, sessionOptions, now)
                    }
                }
            }
            "again" in step -> begun { current().nextRound(step["again"] as String, now) }
            "answer" in step -> outcome { keyedJson(current().resolve(answerIn(step["answer"]), now)) }
            "supply" in step -> {
                val supply = step["supply"].asObject() ?: throw BrokenScript("supply is no object")
                outcome { current().supply(supply["key"] as String, toJson(supply["result"])); null }
            }
            "retry" in step -> {
                val retry = step["retry"].asObject() ?: throw BrokenScript("retry is no object")
                outcome { current().retry(rpcIdOf(retry["id"]), retry["partial"] as Boolean? ?: false) }
            }
            "missing" in step -> ok(current().missing())
            "pending" in step -> ok(current().pending().map { it.key })
            "snapshot" in step -> outcome {
                val written = current().snapshot(keyOf(step["snapshot"].asObject() ?: emptyMap()))
                last = written
                String(written, Charsets.UTF_8)
            }
            "snapshotId" in step -> ok(current().snapshotId())
            "restore" in step -> {
                val (snapshot, keys) = restoreArgs(step["restore"].asObject() ?: emptyMap(), last)
                val restored = try {
                    InputRound.restore(snapshot, keys, limits, now)
                } catch (error: ToolnexusException.Failed) {
                    return failed(error)
                }
                round?.close()
                round = restored
                ok(
                    mapOf(
                        "pending" to restored.pending().map { mapOf("key" to it.key, "request" to requestJson(it.request)) },
                        "missing" to restored.missing(),
                    ),
                )
            }
            else -> throw BrokenScript("unknown step ${toJson(step)}")
        }
    }

    /** The outcome of starting a round; a round started replaces the current one. */
    private fun begun(start: () -> InputRound): Map<String, Any?> {
        val started = try {
            start()
        } catch (error: ToolnexusException.Failed) {
            return failed(error)
        }
        round?.close()
        round = started
        return ok(
            mapOf(
                "requests" to started.requests().map { mapOf("key" to it.key, "request" to requestJson(it.request)) },
                "unhandled" to started.unhandled().map { mapOf("key" to it.key, "method" to it.method) },
                "requestState" to (started.requestState() != null),
            ),
        )
    }

    override fun close() {
        round?.close()
    }
}

/** A `snapshot` script about a session: the current session and the last snapshot written. */
private class SessionSnapshotScript(options: Map<String, Any?>, private val limits: Limits?) : AutoCloseable {
    private var session = Session(sessionOptionsOf(options))
    private var last: ByteArray? = null

    fun step(step: Map<String, Any?>): Map<String, Any?> = when {
        "snapshot" in step -> {
            val snapshot = step["snapshot"].asObject() ?: throw BrokenScript("snapshot is no object")
            outcome {
                val written = session.snapshot(snapshot["id"] as String, keyOf(snapshot))
                last = written
                String(written, Charsets.UTF_8)
            }
        }
        "snapshotId" in step -> {
            val of = step["snapshotId"].asObject() ?: throw BrokenScript("snapshotId is no object")
            outcome { session.snapshotId(of["id"] as String) }
        }
        "restore" in step -> {
            val (snapshot, keys) = restoreArgs(step["restore"].asObject() ?: emptyMap(), last)
            outcome {
                val restored = Session.restore(snapshot, keys, limits, nowOf(step))
                session.close()
                session = restored
                restored.pending().map(::requestJson)
            }
        }
        else -> sessionStep(session, step)
    }

    override fun close() {
        session.close()
    }
}

/** The script is read within the default limits; the case's apply to the snapshots it restores. */
private fun runSnapshot(text: String, limits: Limits?): String {
    val script = parseJson(compactJson(text, null)).asObject() ?: throw BrokenScript("the script is no object")
    val steps = readScript(text, null).steps
    return when (script["of"]) {
        "round" -> RoundSnapshotScript(script["options"].asObject() ?: emptyMap(), limits).use { toJson(steps.map(it::step)) }
        "session" -> SessionSnapshotScript(script["options"].asObject() ?: emptyMap(), limits).use { toJson(steps.map(it::step)) }
        else -> throw BrokenScript("`of` is \"round\" or \"session\", not ${toJson(script["of"])}")
    }
}

/** The scripted operations, by the suite's name. */
val WIRE_OPS: Map<String, Op> = mapOf(
    "session" to textOp { _, text, limits -> runSession(text, limits) },
    "reverse_request" to textOp { _, text, limits -> runReverse(text, limits) },
    "mrtr" to textOp { _, text, limits -> runMrtr(text, limits) },
    "task" to textOp { _, text, limits -> runTask(text, limits) },
    "snapshot" to textOp { _, text, limits -> runSnapshot(text, limits) },
)
