// Runners of the suite's scripted operations (`session`, `reverse_request`, `mrtr`, `task`,
// `snapshot`): each runs every step of the case's script against one `Session`,
// `ReverseBridge`, `InputRound` or `TaskDriver` (for `snapshot`, the round or session each
// restore replaces) and writes the array of step outcomes, `{"ok": value}` or
// `{"error": {"kind", "pointer", "violations"?}}`.
//
// Requests and results go into the outcomes as the API writes them (`requestToJson`,
// `elicitResultToJson`), JSON-RPC text as strings, so every byte is compared. A case's bytes
// input goes through the `…Bytes` variants wherever the API has one.

import Foundation
import JSONText
import Toolnexus

// MARK: - What every script shares

/// A script's `options` as `SessionOptions`.
private func options(_ script: JSON) throws -> SessionOptions {
    var options = SessionOptions()
    for member in script["options"]?.members ?? [] {
        let value = member.value
        switch member.key {
        case "modes":
            // The core reads the name, as every binding does.
            options.modes = try modesFromName(name: text(value, "modes"))
        case "maxPending": options.maxPending = try count(value, "maxPending")
        case "ttlMs": options.ttlMs = try count(value, "ttlMs")
        case "applyDefaults": options.applyDefaults = try flag(value, "applyDefaults")
        case "allowUnknown": options.allowUnknown = try flag(value, "allowUnknown")
        case "rejectSecrets": options.rejectSecrets = try flag(value, "rejectSecrets")
        default: throw BrokenCase("unknown option \(member.key)")
        }
    }
    return options
}

private func count(_ value: JSON, _ what: String) throws -> UInt64 {
    guard let count = value.uint64Value else { throw BrokenCase("\(what) must be a count, not \(value.text)") }
    return count
}

private func flag(_ value: JSON, _ what: String) throws -> Bool {
    guard let flag = value.boolValue else { throw BrokenCase("\(what) must be a boolean, not \(value.text)") }
    return flag
}

private func text(_ value: JSON?, _ what: String) throws -> String {
    guard let text = value?.stringValue else { throw BrokenCase("\(what) must be a string") }
    return text
}

/// The step's `now`, 0 when absent (never the system clock, so outputs are fixed).
private func now(_ step: JSON) throws -> UInt64 {
    guard let given = step["now"] else { return 0 }
    return try count(given, "now")
}

func ok(_ value: JSON) -> JSON { .fields(("ok", value)) }

/// The error part of a failed step; `extra` members follow the suite's own.
func failed(_ error: ToolnexusError, _ extra: (String, JSON)...) -> JSON {
    guard case .Failed(let kind, let pointer, _, let violations) = error else { return .null }
    var described = [JSON.Member("kind", .string(kind.asStr())), JSON.Member("pointer", .string(pointer))]
    if !violations.isEmpty { described.append(JSON.Member("violations", violationsValue(violations))) }
    described += extra.map { JSON.Member($0.0, $0.1) }
    return .fields(("error", .object(described)))
}

/// `{"ok": step()}`, or the error the API threw.
func outcome(_ step: () throws -> JSON) throws -> JSON {
    do {
        return ok(try step())
    } catch let error as ToolnexusError {
        return failed(error)
    }
}

private func answer(_ value: JSON?, _ input: Input) throws -> Answer {
    guard let value else { throw BrokenCase("a step lacks its answer") }
    return input.isBytes ? try answerFromJsonBytes(json: Data(value.text.utf8)) : try answerFromJson(json: value.text)
}

private func request(_ request: Request) throws -> JSON { .raw(try requestToJson(request: request)) }

private func result(_ result: ElicitResult) throws -> JSON { .raw(try elicitResultToJson(result: result)) }

private func rpcId(_ id: RpcId) -> JSON {
    switch id {
    case .text(let value): return .string(value)
    case .number(let spelling): return .number(spelling)
    }
}

/// Reads the script within `limits` and writes the outcome of each step `run` gives.
private func runScript(_ input: Input, _ limits: Limits?, _ run: (JSON) throws -> (JSON) throws -> JSON) throws -> String {
    let script = try input.value(limits)
    guard let steps = script["steps"]?.arrayValue else { throw BrokenCase("the script has no steps") }
    let step = try run(script)
    return JSON.array(try steps.map(step)).text
}

// MARK: - session

private func cancelled(_ list: [CancelledRequest]) throws -> JSON {
    .array(try list.map { .fields(("id", .string($0.id)), ("result", try result($0.result))) })
}

private func sessionStep(_ session: Session, _ step: JSON, _ input: Input) throws -> JSON {
    if let params = step["begin"] {
        let id = step["id"]?.stringValue, at = try now(step)
        return try outcome {
            try request(input.isBytes
                ? session.beginBytes(paramsJson: Data(params.text.utf8), id: id, nowMs: at, limits: nil)
                : session.begin(paramsJson: params.text, id: id, nowMs: at, limits: nil))
        }
    }
    if step.has("resolve") {
        let at = try now(step)
        return try outcome { try result(session.resolve(answer: answer(step["resolve"], input), nowMs: at)) }
    }
    if step.has("pending") { return ok(.array(session.pending().map { .string($0.id) })) }
    if step.has("awaiting") {
        return ok(.array(session.awaitingCompletion().map {
            .fields(("requestId", .string($0.requestId)), ("elicitationId", .string($0.elicitationId)))
        }))
    }
    if let elicitationId = step["complete"] {
        return ok(.string(orNull: session.complete(elicitationId: try text(elicitationId, "complete"))))
    }
    if let at = step["expire"] { return ok(try cancelled(session.expire(nowMs: count(at, "expire")))) }
    if step.has("cancelAll") { return ok(try cancelled(session.cancelAll())) }
    throw BrokenCase("unknown session step \(step.text)")
}

private func runSession(_ c: Case, _ input: Input) throws -> String {
    try runScript(input, c.limits) { script in
        let session = Session(options: try options(script))
        return { step in try sessionStep(session, step, input) }
    }
}

// MARK: - reverse_request

private func incoming(_ incoming: Incoming) throws -> JSON {
    switch incoming {
    case .elicit(let id, let elicited):
        return .fields(("elicit", .fields(("rpcId", rpcId(id)), ("request", try request(elicited)))))
    case .reply(let response):
        return .fields(("reply", .string(response)))
    case .completed(let requestId, let reply):
        var completed = [JSON.Member("requestId", .string(requestId))]
        if let reply { completed.append(JSON.Member("reply", .string(reply))) }
        return .fields(("completed", .object(completed)))
    case .withdrawn(let requestId):
        return .fields(("withdrawn", .string(requestId)))
    case .ignored(let why):
        return .fields(("ignored", .string(why.asStr())))
    }
}

private func reverseStep(_ bridge: ReverseBridge, _ step: JSON, _ input: Input, _ limits: Limits?) throws -> JSON {
    let at = try now(step)
    if let message = step["receive"] {
        let message = try text(message, "receive")
        return ok(try incoming(input.isBytes
            ? bridge.receiveBytes(message: Data(message.utf8), nowMs: at, limits: limits)
            : bridge.receive(message: message, nowMs: at, limits: limits)))
    }
    if step.has("answer") {
        return try outcome { .string(orNull: try bridge.respond(answer: answer(step["answer"], input), nowMs: at)) }
    }
    if let requestId = step["fail"] {
        let requestId = try text(requestId, "fail"), message = step["message"]?.stringValue
        return try outcome { .string(orNull: try bridge.fail(requestId: requestId, message: message)) }
    }
    if let response = step["urlRequired"] {
        let response = try text(response, "urlRequired")
        return try outcome {
            .array(try (input.isBytes
                ? bridge.urlRequiredBytes(errorResponse: Data(response.utf8), nowMs: at, limits: limits)
                : bridge.urlRequired(errorResponse: response, nowMs: at, limits: limits)).map(request))
        }
    }
    if step.has("cancelAll") { return ok(.array(bridge.cancelAll().map { .string($0) })) }
    if let until = step["expire"] { return ok(.array(bridge.expire(nowMs: try count(until, "expire")).map { .string($0) })) }
    if step.has("capabilities") { return ok(.raw(bridge.capabilities())) }
    if step.has("pending") {
        return ok(.array(bridge.pending().map { pending in
            var entry = [JSON.Member("requestId", .string(pending.request.id))]
            if let id = pending.rpcId { entry.append(JSON.Member("rpcId", rpcId(id))) }
            return .object(entry)
        }))
    }
    throw BrokenCase("unknown reverse_request step \(step.text)")
}

private func runReverse(_ c: Case, _ input: Input) throws -> String {
    // The script is read within the default limits; the case's limits apply to the messages
    // its steps carry, as they would to messages off the wire.
    try runScript(input, nil) { script in
        let bridge = ReverseBridge(options: try options(script))
        return { step in try reverseStep(bridge, step, input, c.limits) }
    }
}

// MARK: - mrtr

/// One `mrtr` script's state: its options, the current round and the last retry sent.
private final class MrtrScript {
    let options: SessionOptions
    let limits: Limits?
    let input: Input
    var round: InputRound?
    var lastRetry: String?

    init(options: SessionOptions, limits: Limits?, input: Input) {
        self.options = options
        self.limits = limits
        self.input = input
    }

    func current() throws -> InputRound {
        guard let round else { throw BrokenCase("no round was started") }
        return round
    }

    func step(_ step: JSON) throws -> JSON {
        let at = try now(step)
        if let start = step["start"] { return try self.start(start, at) }
        if let response = step["again"] {
            let response = try text(response, "again"), round = try current()
            return try begun { try round.nextRound(responseJson: response, nowMs: at, limits: limits) }
        }
        if step.has("answer") {
            let round = try current()
            return try outcome { try keyed(round.resolve(answer: answer(step["answer"], input), nowMs: at)) }
        }
        if let supply = step["supply"] {
            let round = try current(), key = try text(supply["key"], "supply.key")
            let result = (supply["result"] ?? .null).text
            return try outcome {
                try round.supply(key: key, resultJson: result, limits: limits)
                return .null
            }
        }
        if let retry = step["retry"] { return try self.retry(retry) }
        if let request = step["stamp"] {
            let request = try text(request, "stamp")
            return try outcome { .string(try withClientCapabilities(requestJson: request, modes: options.modes, limits: limits)) }
        }
        if let response = step["classify"] {
            let response = try text(response, "classify")
            return try outcome { classified(try classifyResult(responseJson: response, limits: limits)) }
        }
        if step.has("missing") { return ok(.array(try current().missing().map { .string($0) })) }
        if step.has("pending") { return ok(.array(try current().pending().map { .string($0.key) })) }
        if let until = step["expire"] {
            return ok(.array(try current().expire(nowMs: count(until, "expire")).map(keyed)))
        }
        if step.has("cancelPending") { return ok(.array(try current().cancelPending().map(keyed))) }
        throw BrokenCase("unknown mrtr step \(step.text)")
    }

    func start(_ start: JSON, _ at: UInt64) throws -> JSON {
        guard let sent = start["request"]?.stringValue ?? lastRetry else {
            throw BrokenCase("start without `request` needs an earlier retry")
        }
        let response = try text(start["response"], "start.response")
        let request: ClientRequest
        do {
            request = try input.isBytes
                ? ClientRequest.fromJsonBytes(json: Data(sent.utf8), limits: limits)
                : ClientRequest.fromJson(json: sent, limits: limits)
        } catch let error as ToolnexusError {
            return failed(error, ("in", .string("request")))
        }
        return try begun {
            try InputRound.start(request: request, responseJson: response, options: options, nowMs: at, limits: limits)
        }
    }

    /// The outcome of starting a round; a round started replaces the current one.
    func begun(_ start: () throws -> InputRound) throws -> JSON {
        let started: InputRound
        do {
            started = try start()
        } catch let error as ToolnexusError {
            return failed(error, ("in", .string("response")))
        }
        round = started
        return ok(.fields(
            ("requests", .array(try started.requests().map {
                .fields(("key", .string($0.key)), ("request", try request($0.request)))
            })),
            ("unhandled", .array(started.unhandled().map {
                .fields(("key", .string($0.key)), ("method", .string($0.method)))
            })),
            ("requestState", .bool(started.requestState() != nil))
        ))
    }

    func retry(_ retry: JSON) throws -> JSON {
        let round = try current()
        let id: RpcId
        switch retry["id"] {
        case .string(let value)?: id = .text(value: value)
        case .number(let spelling)?: id = .number(spelling: spelling)
        default: throw BrokenCase("retry.id must be a string or a number")
        }
        let missing = round.missing()
        do {
            let sent = try round.retry(id: id, partial: retry["partial"]?.boolValue ?? false)
            lastRetry = sent
            return ok(.string(sent))
        } catch let error as ToolnexusError {
            guard case .Failed(.missingResponses, _, _, _) = error else { return failed(error) }
            return failed(error, ("missing", .array(missing.map { .string($0) })))
        }
    }
}

private func keyed(_ keyed: KeyedResult) throws -> JSON {
    .fields(("key", .string(keyed.key)), ("result", try result(keyed.result)))
}

private func classified(_ result: ServerResult) -> JSON {
    switch result {
    case .complete: return .string("complete")
    case .needsInput: return .string("input_required")
    case .unknown(let resultType, _): return .fields(("unknown", .string(resultType)))
    }
}

private func runMrtr(_ c: Case, _ input: Input) throws -> String {
    try runScript(input, c.limits) { script in
        let mrtr = MrtrScript(options: try options(script), limits: c.limits, input: input)
        return mrtr.step
    }
}

// MARK: - task

/// A request id as a step gives it: a string, or a number as spelt.
private func requestId(_ value: JSON?) throws -> RpcId {
    switch value {
    case .string(let text)?: return .text(value: text)
    case .number(let spelling)?: return .number(spelling: spelling)
    default: throw BrokenCase("a request id must be a string or a number")
    }
}

private func eraOf(_ value: JSON?) throws -> Era {
    switch value?.stringValue {
    case "modern"?: return .modern
    case "handshake"?: return .handshake
    default: throw BrokenCase("an era is \"modern\" or \"handshake\"")
    }
}

private func eraName(_ era: Era) -> String {
    switch era {
    case .modern: return "modern"
    case .handshake: return "handshake"
    }
}

/// A task with the suite's names, absent members left out.
private func taskValue(_ task: TaskInfo) -> JSON {
    var members = [JSON.Member("taskId", .string(task.taskId)), JSON.Member("status", .string(task.status.asStr()))]
    if let message = task.statusMessage { members.append(JSON.Member("statusMessage", .string(message))) }
    if let createdAt = task.createdAt { members.append(JSON.Member("createdAt", .string(createdAt))) }
    if let lastUpdatedAt = task.lastUpdatedAt { members.append(JSON.Member("lastUpdatedAt", .string(lastUpdatedAt))) }
    if let ttl = task.ttlMs { members.append(JSON.Member("ttlMs", .integer(ttl))) }
    if let interval = task.pollIntervalMs { members.append(JSON.Member("pollIntervalMs", .integer(interval))) }
    return .object(members)
}

private func state(_ driver: TaskDriver) -> JSON {
    .fields(
        ("task", taskValue(driver.task())),
        ("era", .string(eraName(driver.era()))),
        ("done", .bool(driver.isDone())),
        ("pollIntervalMs", .integer(driver.pollIntervalMs())),
        ("nextPollAt", .integer(driver.nextPollAt())),
        ("changedAt", .integer(driver.changedAt())),
        ("shown", .array(driver.shown().map { .string($0) })),
        ("sent", .array(driver.sent().map { .string($0) }))
    )
}

private func event(_ event: TaskEvent) throws -> JSON {
    switch event {
    case .working(let changed):
        return .fields(("kind", .string("working")), ("changed", .bool(changed)))
    case .inputRequired(let requests):
        return .fields(
            ("kind", .string("input_required")),
            ("requests", .array(try requests.map { .fields(("key", .string($0.key)), ("request", try request($0.request))) }))
        )
    case .completed(let resultJson):
        var members = [JSON.Member("kind", .string("completed"))]
        if let resultJson { members.append(JSON.Member("result", .raw(resultJson))) }
        return .object(members)
    case .failed(let errorJson):
        var members = [JSON.Member("kind", .string("failed"))]
        if let errorJson { members.append(JSON.Member("error", .raw(errorJson))) }
        return .object(members)
    case .cancelled:
        return .fields(("kind", .string("cancelled")))
    }
}

/// One `task` script's state: its options and the driver following the task.
private final class TaskScript {
    let options: SessionOptions
    let limits: Limits?
    let input: Input
    var driver: TaskDriver?

    init(options: SessionOptions, limits: Limits?, input: Input) {
        self.options = options
        self.limits = limits
        self.input = input
    }

    func current() throws -> TaskDriver {
        guard let driver else { throw BrokenCase("no task was started") }
        return driver
    }

    func step(_ step: JSON) throws -> JSON {
        let at = try now(step)
        if let start = step["start"] {
            let response = try text(start["response"], "start.response"), era = try eraOf(start["era"])
            return try outcome {
                let started = try followTask(responseJson: response, era: era, options: options, nowMs: at, limits: limits)
                driver = started
                return started.map(state) ?? .null
            }
        }
        if let meta = step["meta"] {
            let driver = try current()
            return try outcome {
                try driver.setMeta(metaJson: meta.text, limits: limits)
                return .null
            }
        }
        if let response = step["poll"] {
            let response = try text(response, "poll"), driver = try current()
            return try outcome { try event(driver.read(responseJson: response, nowMs: at, limits: limits)) }
        }
        if step.has("answer") {
            let driver = try current()
            return try outcome { try keyed(driver.resolve(answer: answer(step["answer"], input), nowMs: at)) }
        }
        if let supply = step["supply"] {
            let driver = try current(), key = try text(supply["key"], "supply.key")
            let result = (supply["result"] ?? .null).text
            return try outcome {
                try driver.supply(key: key, resultJson: result, limits: limits)
                return .null
            }
        }
        if let update = step["update"] {
            let driver = try current(), id = try requestId(update["id"])
            return try outcome {
                guard let call = try driver.update(partial: update["partial"]?.boolValue ?? false) else { return .null }
                return .string(try call.toRequest(id: id))
            }
        }
        for (name, call) in [("get", TaskDriver.get), ("cancel", TaskDriver.cancel), ("result", TaskDriver.result)] {
            if let id = step[name] {
                let id = try requestId(id), made = call(try current())()
                return try outcome { .string(try made.toRequest(id: id)) }
            }
        }
        if step.has("pending") { return ok(.array(try current().pending().map { .string($0.key) })) }
        if step.has("unhandled") {
            return ok(.array(try current().unhandled().map {
                .fields(("key", .string($0.key)), ("method", .string($0.method)))
            }))
        }
        if let until = step["expire"] {
            return ok(.array(try current().expire(nowMs: count(until, "expire")).map(keyed)))
        }
        if step.has("cancelPending") { return ok(.array(try current().cancelPending().map(keyed))) }
        if step.has("state") { return ok(state(try current())) }
        if let at = step["due"] { return ok(.bool(try current().pollDue(nowMs: count(at, "due")))) }
        throw BrokenCase("unknown task step \(step.text)")
    }
}

private func runTask(_ c: Case, _ input: Input) throws -> String {
    try runScript(input, c.limits) { script in
        let task = TaskScript(options: try options(script), limits: c.limits, input: input)
        return task.step
    }
}

// MARK: - snapshot

/// A `restore` step's snapshot (absent: the last one written) and keys, as bytes.
private func restoreArgs(_ restore: JSON, _ last: Data?) throws -> (Data, [Data]) {
    let snapshot: Data
    if let given = restore["snapshot"] {
        snapshot = Data(try text(given, "restore.snapshot").utf8)
    } else if let last {
        snapshot = last
    } else {
        throw BrokenCase("restore without `snapshot` needs one written before")
    }
    let keys = try (restore["keys"]?.arrayValue ?? []).map { Data(try text($0, "a key").utf8) }
    return (snapshot, keys)
}

/// A `snapshot` step's key, as bytes, if it gives one.
private func keyOf(_ snapshot: JSON) throws -> Data? {
    guard let key = snapshot["key"] else { return nil }
    return Data(try text(key, "snapshot.key").utf8)
}

/// The snapshot written, as the text the suite pins (a sealed one is ASCII).
private func written(_ bytes: Data) throws -> JSON {
    guard let text = String(data: bytes, encoding: .utf8) else { throw BrokenCase("the snapshot written is not UTF-8") }
    return .string(text)
}

/// A `snapshot` script about a round: its options, the current round and the last snapshot
/// written.
private final class RoundSnapshotScript {
    let options: SessionOptions
    let limits: Limits?
    let input: Input
    var round: InputRound?
    var last: Data?

    init(options: SessionOptions, limits: Limits?, input: Input) {
        self.options = options
        self.limits = limits
        self.input = input
    }

    func current() throws -> InputRound {
        guard let round else { throw BrokenCase("no round was started or restored") }
        return round
    }

    func step(_ step: JSON) throws -> JSON {
        let at = try now(step)
        if let start = step["start"] {
            let sent = try text(start["request"], "start.request"), response = try text(start["response"], "start.response")
            return try begun {
                let request = try ClientRequest.fromJson(json: sent, limits: nil)
                return try InputRound.start(request: request, responseJson: response, options: options, nowMs: at, limits: nil)
            }
        }
        if let response = step["again"] {
            let response = try text(response, "again"), round = try current()
            return try begun { try round.nextRound(responseJson: response, nowMs: at, limits: nil) }
        }
        if step.has("answer") {
            let round = try current()
            return try outcome { try keyed(round.resolve(answer: answer(step["answer"], input), nowMs: at)) }
        }
        if let supply = step["supply"] {
            let round = try current(), key = try text(supply["key"], "supply.key")
            let result = (supply["result"] ?? .null).text
            return try outcome {
                try round.supply(key: key, resultJson: result, limits: nil)
                return .null
            }
        }
        if let retry = step["retry"] {
            let round = try current(), id = try requestId(retry["id"])
            return try outcome { .string(try round.retry(id: id, partial: retry["partial"]?.boolValue ?? false)) }
        }
        if step.has("missing") { return ok(.array(try current().missing().map { .string($0) })) }
        if step.has("pending") { return ok(.array(try current().pending().map { .string($0.key) })) }
        if let snapshot = step["snapshot"] {
            let round = try current(), key = try keyOf(snapshot)
            return try outcome {
                let bytes = try round.snapshot(key: key)
                last = bytes
                return try written(bytes)
            }
        }
        if step.has("snapshotId") { return ok(.string(try current().snapshotId())) }
        if let restore = step["restore"] {
            let (snapshot, keys) = try restoreArgs(restore, last)
            return try outcome {
                let restored = try InputRound.restore(snapshot: snapshot, keys: keys, limits: limits, nowMs: at)
                round = restored
                return .fields(
                    ("pending", .array(try restored.pending().map {
                        .fields(("key", .string($0.key)), ("request", try request($0.request)))
                    })),
                    ("missing", .array(restored.missing().map { .string($0) }))
                )
            }
        }
        throw BrokenCase("unknown snapshot step \(step.text)")
    }

    /// The outcome of starting a round; a round started replaces the current one.
    func begun(_ start: () throws -> InputRound) throws -> JSON {
        try outcome {
            let started = try start()
            round = started
            return .fields(
                ("requests", .array(try started.requests().map {
                    .fields(("key", .string($0.key)), ("request", try request($0.request)))
                })),
                ("unhandled", .array(started.unhandled().map {
                    .fields(("key", .string($0.key)), ("method", .string($0.method)))
                })),
                ("requestState", .bool(started.requestState() != nil))
            )
        }
    }
}

/// A `snapshot` script about a session: the current session and the last snapshot written.
private final class SessionSnapshotScript {
    let limits: Limits?
    let input: Input
    var session: Session
    var last: Data?

    init(options: SessionOptions, limits: Limits?, input: Input) {
        self.limits = limits
        self.input = input
        session = Session(options: options)
    }

    func step(_ step: JSON) throws -> JSON {
        if let snapshot = step["snapshot"] {
            let id = try text(snapshot["id"], "snapshot.id"), key = try keyOf(snapshot)
            return try outcome {
                let bytes = try session.snapshot(requestId: id, key: key)
                last = bytes
                return try written(bytes)
            }
        }
        if let of = step["snapshotId"] {
            let id = try text(of["id"], "snapshotId.id")
            return try outcome { .string(try session.snapshotId(requestId: id)) }
        }
        if let restore = step["restore"] {
            let (snapshot, keys) = try restoreArgs(restore, last), at = try now(step)
            return try outcome {
                let restored = try Session.restore(snapshot: snapshot, keys: keys, limits: limits, nowMs: at)
                session = restored
                return .array(try restored.pending().map(request))
            }
        }
        return try sessionStep(session, step, input)
    }
}

private func runSnapshot(_ c: Case, _ input: Input) throws -> String {
    // The script is read within the default limits; the case's limits apply to the snapshots
    // its steps restore.
    try runScript(input, nil) { script in
        let options = try options(script)
        switch script["of"]?.stringValue {
        case "round"?: return RoundSnapshotScript(options: options, limits: c.limits, input: input).step
        case "session"?: return SessionSnapshotScript(options: options, limits: c.limits, input: input).step
        default: throw BrokenCase("`of` is \"round\" or \"session\"")
        }
    }
}

let scriptRunners: [String: Runner] = [
    "session": runSession,
    "reverse_request": runReverse,
    "mrtr": runMrtr,
    "task": runTask,
    "snapshot": runSnapshot,
]
