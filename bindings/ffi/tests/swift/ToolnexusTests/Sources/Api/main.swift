// The Swift API as an app uses it: a form screen built from the request's `Form`, filled through
// `form.parse`, validated, answered and mapped; URL review; the session, also from many
// threads at once; the 2025 JSON-RPC bridge; a 2026-07-28 multi round-trip; a round and a
// pending request written down and restored; a task followed in both eras; the form as a web
// page and its post read back; server text shown on a terminal; errors as Swift `Error`s. Prints
// `api (swift): N passed, N failed` and exits non-zero on any failure.

import Dispatch
import Foundation
import JSONText
import Toolnexus

// MARK: - Checks

var passed = 0
var failures: [String] = []

func expect(_ what: String, _ ok: Bool, _ got: @autoclosure () -> Any? = nil) {
    if ok {
        passed += 1
    } else {
        failures.append("\(what) (got \(got().map { "\($0)" } ?? "nil"))")
    }
}

/// The `ToolnexusError` `body` throws, or nil when it returns (or throws something else).
func failure(_ body: () throws -> Void) -> ToolnexusError? {
    do {
        try body()
        return nil
    } catch let error as ToolnexusError {
        return error
    } catch {
        return nil
    }
}

/// Runs one group of checks; an error it does not expect is a failure of its own.
func group(_ name: String, _ body: () throws -> Void) {
    do {
        try body()
    } catch {
        failures.append("\(name): unexpected \(error)")
    }
}

// MARK: - A form, as a screen shows and fills it

let signUp = """
    {"mode":"form","message":"Sign up","requestedSchema":{"type":"object","properties":{\
    "name":{"type":"string","title":"Name","minLength":2},\
    "age":{"type":"integer","title":"Age","minimum":18},\
    "plan":{"type":"string","oneOf":[{"const":"free","title":"Free"},{"const":"pro","title":"Pro"}],"default":"free"},\
    "topics":{"type":"array","items":{"type":"string","enum":["news","tips"]}},\
    "newsletter":{"type":"boolean"}},"required":["name","age","plan"]}}
    """

/// What a person typed into each field of the form, by name.
func typed(_ form: Form, _ texts: [String: String]) throws -> [ContentEntry] {
    try form.fields().compactMap { field in
        try form.parse(fieldName: field.name, text: texts[field.name] ?? "").map { ContentEntry(name: field.name, value: $0) }
    }
}

group("form") {
    let request = try elicitationToRequest(paramsJson: signUp, id: "f1")
    expect("a form is kind input", request.kind == "input", request.kind)
    let form = try request.form()
    let fields = form.fields()
    expect("the request's fields are its form's", try request.formFields() == fields)
    expect("a well-formed schema has no problems", form.problems().isEmpty, form.problems())
    expect("a field by its name", form.field(name: "plan") == fields[2] && form.field(name: "nope") == nil)
    expect("the defaults are where a screen starts", form.defaults() == [ContentEntry(name: "plan", value: .text(value: "free"))], form.defaults())
    expect("fields keep the schema's order", fields.map(\.name) == ["name", "age", "plan", "topics", "newsletter"], fields.map(\.name))
    expect("widgets to switch on", fields.map(\.widget) == [.text, .integer, .singleSelect, .multiSelect, .toggle], fields.map(\.widget))
    expect("the title is the label", fields.first?.label == "Name", fields.first?.label)
    expect("required comes from the schema", fields.map(\.required) == [true, true, true, false, false], fields.map(\.required))
    expect("constraints are typed", fields.first?.constraints.minLength == 2 && fields[1].constraints.minimum == "18", fields.first?.constraints)
    let plan = fields[2]
    expect("options carry value and label", plan.options == [FieldOption(value: "free", label: "Free"), FieldOption(value: "pro", label: "Pro")], plan.options)
    expect("the default is a content value", plan.defaultValue == .text(value: "free"), plan.defaultValue)
    expect("nothing here looks secret", fields.allSatisfy { !$0.sensitive })

    expect("a label picks an option", try form.parse(fieldName: "plan", text: " pro ") == .text(value: "pro"))
    expect("a list is comma-separated", try form.parse(fieldName: "topics", text: "tips, news") == .textList(values: ["tips", "news"]))
    expect("yes is true", try form.parse(fieldName: "newsletter", text: "Yes") == .boolean(value: true))
    expect("an integer keeps its digits", try form.parse(fieldName: "age", text: "+036") == .number(spelling: "36"))
    expect("blank with a default is left out", try form.parse(fieldName: "plan", text: "  ") == nil)
    let notANumber = failure { _ = try form.parse(fieldName: "age", text: "old") }
    expect("text an integer field refuses is InvalidValue at its pointer", notANumber?.kind == .invalidValue && notANumber?.pointer == "/age", notANumber)
    let blank = failure { _ = try form.parse(fieldName: "name", text: "") }
    expect("a required field left blank is MissingField", blank?.kind == .missingField && blank?.pointer == "/name", blank)
    let short = failure { _ = try form.parse(fieldName: "name", text: "A") }
    expect("typed text is held to the field's constraints", short?.kind == .invalidValue && short?.detail.isEmpty == false, short)
    let stranger = failure { _ = try form.parse(fieldName: "nickname", text: "Ada") }
    expect("a field the form lacks is UnknownField at its pointer", stranger?.kind == .unknownField && stranger?.pointer == "/nickname", stranger)

    let schema = try request.schemaJson() ?? ""
    let tooShort = [ContentEntry(name: "name", value: .text(value: "A")), ContentEntry(name: "age", value: .number(spelling: "16"))]
    let found = try validateContentEntries(schemaJson: schema, content: tooShort)
    expect(
        "every violation is listed",
        found.map(\.pointer) == ["/name", "/age", "/plan"] && found.map(\.keyword) == ["minLength", "minimum", "required"],
        found
    )
    expect("violations have words for people", found.allSatisfy { !$0.message.isEmpty })

    expect("the form finds the same", try form.validateEntries(content: tooShort, allowUnknown: false) == found)
    let entries = try typed(form, ["name": "Ada", "age": "36", "topics": "news"])
    let unfilled = try form.validateEntries(content: entries, allowUnknown: false)
    expect("a default is not content until it is filled in", unfilled.map(\.pointer) == ["/plan"], unfilled)
    let prepared = try form.prepareEntries(content: entries, allowUnknown: false)
    expect("the free function agrees", try prepareContentEntries(schemaJson: schema, content: entries) == prepared)
    expect(
        "preparing JSON text is the same",
        try form.prepare(contentJson: contentToJson(content: entries), allowUnknown: false, limits: nil) == contentToJson(content: prepared)
    )
    expect("prepare fills the default in", prepared.last == ContentEntry(name: "plan", value: .text(value: "free")), prepared.last)
    expect("prepared content is valid", try validateContentEntries(schemaJson: schema, content: prepared).isEmpty)
    let answer = Answer(id: request.id, ok: true, data: try contentToJson(content: prepared))
    let result = try answerToElicitResult(answer: answer)
    expect("ok is accept", result.action == .accept, result.action)
    expect(
        "the result is MCP's, content in order",
        try elicitResultToJson(result: result) == #"{"action":"accept","content":{"name":"Ada","age":36,"topics":["news"],"plan":"free"}}"#,
        try? elicitResultToJson(result: result)
    )
    let age = result.content?.first { $0.name == "age" }?.value
    expect("a number reads as a double", age?.asDouble() == 36, age)
    let declined = try answerToElicitResult(answer: Answer(id: request.id, ok: false, reason: .declined))
    expect("declined is decline, without content", declined.action == .decline && declined.content == nil, declined)
}

group("secrets") {
    let schema = #"{"type":"object","properties":{"password":{"type":"string"},"name":{"type":"string"}}}"#
    let found = try sensitiveFields(schemaJson: schema)
    expect("a password field is found", found == [SensitiveField(name: "password", kind: .password)], found)
    let refused = failure { try rejectSecrets(schemaJson: schema) }
    expect("the policy refuses it at its property", refused?.kind == .sensitiveField && refused?.pointer == "/properties/password", refused)
    let form = try Form(schemaJson: schema)
    expect("the form finds the same", form.sensitiveFields() == found && form.field(name: "password")?.secretKind == .password)
    let its = failure { try form.rejectSecrets() }
    expect("and refuses the same", its?.kind == .sensitiveField && its?.pointer == "/properties/password", its)
    expect("a kind says what it is", SecretKind.password.describe() == "a password", SecretKind.password.describe())
    let problems = try checkSchema(schemaJson: #"{"type":"object","properties":{"n":{"type":"integer","minimum":5,"maximum":1}}}"#)
    expect("schema problems are typed", problems.map(\.kind) == [.contradictoryBounds], problems)
}

// MARK: - URL review

group("url review") {
    let fine = reviewUrl(url: "HTTPS://Example.COM/path")
    expect("https is ok", fine.verdict == .ok && fine.findings.isEmpty, fine)
    expect("the URL is normalised", fine.url == "https://example.com/path" && fine.host == "example.com" && fine.port == 443, fine)
    let plain = reviewUrl(url: "http://example.com/")
    expect("plain http is a warning", plain.verdict == .warn && plain.findings.map(\.code) == [.notHttps], plain)
    let script = reviewUrl(url: "javascript:alert(1)")
    expect("javascript: is rejected", script.verdict == .reject && script.findings.first?.code == .schemeNotAllowed, script)
    let spoof = reviewUrl(url: "https://bank.example@evil.example/login")
    expect("userinfo is rejected, the real host shown", spoof.verdict == .reject && spoof.host == "evil.example", spoof)
    expect("findings say why in words", spoof.findings.allSatisfy { !$0.message.isEmpty }, spoof.findings)
}

// MARK: - Server text on a terminal

group("terminal text") {
    let rewrite = "x\u{1b}[2K\r\u{1b}[1A  URL:  https://bank.example/login"
    let shown = terminalText(text: rewrite, lineBreaks: .keep)
    expect("a line that rewrites the screen is shown, not obeyed", shown == #"x\u{1b}[2K\r\u{1b}[1A  URL:  https://bank.example/login"#, shown)
    expect("a block keeps its line breaks", terminalText(text: "a\r\nb\tc", lineBreaks: .keep) == "a\nb\tc")
    expect("one line shows them", terminalText(text: "a\r\nb\tc", lineBreaks: .show) == #"a\r\nb\tc"#)
    expect("JSON stays JSON", terminalJson(json: "[\"\u{202e}\"]") == #"["\u202e"]"#, terminalJson(json: "[\"\u{202e}\"]"))
    let show = try lineBreaksFromName(name: "show")
    expect("names are the suite's", LineBreaks.keep.asStr() == "keep" && show == .show && show.asStr() == "show", show)
    let unknown = failure { _ = try lineBreaksFromName(name: "Keep") }
    if case .Failed(let kind, let pointer, _, _)? = unknown {
        expect("an unknown name is refused", kind == .invalidValue && pointer == "", unknown)
    } else {
        expect("an unknown name is refused", false, unknown)
    }
}

// MARK: - A screen's start and its reply, one call each

group("one-call screens") {
    let screen = try elicitationToScreen(paramsJson: signUp, id: "signup")
    let request = try elicitationToRequest(paramsJson: signUp, id: "signup")
    expect("the screen's request is elicitationToRequest's", try requestToJson(request: screen.request) == requestToJson(request: request), screen.request)
    expect("a form request's screen has its form and no review", screen.form != nil && screen.review == nil, screen.review)
    let fields = try request.form().fields()
    expect("its fields are the form's", screen.fields == fields && screen.form?.fields() == fields, screen.fields)
    expect("the screen's form checks what is typed", try screen.form?.parse(fieldName: "age", text: "36") == .number(spelling: "36"))

    let link = #"{"mode":"url","message":"Log in","url":"https://bücher.example/auth","elicitationId":"e-1"}"#
    let url = try elicitationToScreen(paramsJson: link, id: "u1")
    expect("a URL request's screen has no form", url.form == nil && url.fields.isEmpty, url.fields)
    expect("and the review of its URL", url.review == reviewUrl(url: "https://bücher.example/auth"), url.review)
    let unusable = failure { _ = try elicitationToScreen(paramsJson: #"{"mode":"form","message":"?","requestedSchema":{"type":"object","properties":{"n":{}}}}"#) }
    expect("a schema that is no form fails under /requestedSchema", unusable?.pointer.hasPrefix("/requestedSchema/properties/n") == true, unusable)

    for answer in [
        Answer(id: "r1", ok: true, data: #"{"name":"Ada","age":36.50}"#),
        Answer(id: "r1", ok: false, reason: .declined),
        Answer(id: "r1", ok: false),
    ] {
        expect("the reply in one call is the reply in two", try answerToElicitResultJson(answer: answer) == elicitResultToJson(result: answerToElicitResult(answer: answer)), answer)
    }

    let session = Session()
    let begun = try session.beginScreen(paramsJson: signUp, id: "s1", nowMs: 0)
    expect("a session's screen is the request it began", try session.get(id: "s1").map { try requestToJson(request: $0) } == requestToJson(request: begun.request), begun.request)
    expect("with the form it prepared", begun.fields == session.form(requestId: "s1")?.fields(), begun.fields)
    let duplicate = failure { _ = try session.beginScreen(paramsJson: signUp, id: "s1", nowMs: 0) }
    expect("and fails as begin does", duplicate?.kind == .duplicateRequest, duplicate)
}

// MARK: - The session

let ageForm = #"{"message":"Age?","requestedSchema":{"type":"object","properties":{"age":{"type":"integer","minimum":18}},"required":["age"]}}"#

group("session") {
    let session = Session(options: SessionOptions(ttlMs: 60_000))
    let request = try session.begin(paramsJson: ageForm, id: "s1", nowMs: 1_000, limits: nil)
    expect("a request expires after its time to live", request.expiresAt == "1970-01-01T00:01:01Z", request.expiresAt)
    expect("the session gives the form it prepared", session.form(requestId: "s1")?.fields().map(\.name) == ["age"])
    let young = failure { _ = try session.resolve(answer: Answer(id: "s1", ok: true, data: #"{"age":12}"#), nowMs: 2_000) }
    expect("invalid content is InvalidContent with violations", young?.kind == .invalidContent && young?.violations.map(\.keyword) == ["minimum"], young)
    expect("the request stays pending for a correction", session.isPending(id: "s1"))
    let result = try session.resolve(answer: Answer(id: "s1", ok: true, data: #"{"age":30}"#), nowMs: 3_000)
    expect("a valid answer is accepted", result.action == .accept, result)
    let again = failure { _ = try session.resolve(answer: Answer(id: "s1", ok: false), nowMs: 4_000) }
    expect("a request resolves once", again?.kind == .unknownRequest, again)

    let url = #"{"mode":"url","message":"Sign in","url":"https://example.com/auth","elicitationId":"e1"}"#
    _ = try session.begin(paramsJson: url, id: "u1", nowMs: 5_000, limits: nil)
    expect("a URL request has no form", session.form(requestId: "u1") == nil && session.form(requestId: "nothing") == nil)
    _ = try session.resolve(answer: Answer(id: "u1", ok: true), nowMs: 5_000)
    expect("an accepted URL request awaits completion", session.awaitingCompletion() == [AwaitingCompletion(requestId: "u1", elicitationId: "e1")])
    expect("completion names the request", session.complete(elicitationId: "e1") == "u1")
    expect("a completion comes once", session.complete(elicitationId: "e1") == nil)

    _ = try session.begin(paramsJson: ageForm, id: "late", nowMs: 10_000, limits: nil)
    let expired = session.expire(nowMs: 70_001)
    expect("a lapsed request is cancelled", expired.map(\.id) == ["late"] && expired.first?.result.action == .cancel, expired)

    let modes = try modesFromName(name: "form")
    expect("modes by name", modes == Modes(form: true, url: false) && modes.supports(mode: .form) && !modes.supports(mode: .url), modes)
    expect("an unknown modes name is refused", failure { _ = try modesFromName(name: "both") }?.kind == .invalidValue)
    let formsOnly = Session(options: SessionOptions(modes: modes))
    let refused = failure { _ = try formsOnly.begin(paramsJson: url, id: "u2", nowMs: 0, limits: nil) }
    expect("a mode the host does not support is refused at /mode", refused?.kind == .modeNotSupported && refused?.pointer == "/mode", refused)
}

group("session across threads") {
    let threads = 400
    let session = Session(options: SessionOptions(maxPending: UInt64(threads)))
    let lock = NSLock()
    var accepted = 0, duplicates = 0, errors: [String] = []
    DispatchQueue.concurrentPerform(iterations: threads) { i in
        do {
            _ = try session.begin(paramsJson: ageForm, id: "t\(i)", nowMs: 0, limits: nil)
            let duplicate = failure { _ = try session.begin(paramsJson: ageForm, id: "t\(i)", nowMs: 0, limits: nil) }
            let result = try session.resolve(answer: Answer(id: "t\(i)", ok: true, data: #"{"age":\#(18 + i)}"#), nowMs: 0)
            lock.lock()
            if result.action == .accept { accepted += 1 }
            if duplicate?.kind == .duplicateRequest { duplicates += 1 }
            lock.unlock()
        } catch {
            lock.lock()
            errors.append("\(i): \(error)")
            lock.unlock()
        }
    }
    expect("no call failed on any thread", errors.isEmpty, errors.prefix(3))
    expect("every thread's answer was accepted", accepted == threads, accepted)
    expect("an id pending on one thread is a duplicate on it", duplicates == threads, duplicates)
    expect("nothing is left pending", session.pending().isEmpty, session.pending().count)

    // Many threads race for one id: exactly one begins it, exactly one resolves it.
    let contested = Session()
    var begun = 0, resolved = 0
    DispatchQueue.concurrentPerform(iterations: 64) { _ in
        let began = (try? contested.begin(paramsJson: ageForm, id: "one", nowMs: 0, limits: nil)) != nil
        let done = (try? contested.resolve(answer: Answer(id: "one", ok: false), nowMs: 0)) != nil
        lock.lock()
        if began { begun += 1 }
        if done { resolved += 1 }
        lock.unlock()
    }
    expect("a contested id resolves exactly as often as it began", begun >= 1 && begun == resolved, (begun, resolved))
}

// MARK: - Limits hold for records as for text

group("records within the limits") {
    let big = String(repeating: "x", count: 5 * 1024 * 1024)
    let asRecord = failure { _ = try answerToElicitResult(answer: Answer(id: big, ok: false)) }
    let asText = failure { _ = try answerFromJson(json: "{\"id\":\"\(big)\",\"ok\":false}") }
    expect("a record over the size limit is too_large at \"\"", asRecord?.kind == .tooLarge && asRecord?.pointer == "", asRecord)
    expect("as its JSON text is", asText?.kind == asRecord?.kind && asText?.pointer == asRecord?.pointer, asText)
    let entries = (0...1000).map { ContentEntry(name: "p\($0)", value: .boolean(value: true)) }
    let tooMany = failure { _ = try contentToJson(content: entries) }
    expect("1,001 content entries are too_many_members at \"\"", tooMany?.kind == .tooManyMembers && tooMany?.pointer == "", tooMany)
}

// MARK: - 16 threads on one object

// The scenario every binding runs: 16 threads share one object; each thread's n-th request is
// accepted, declined, answered with invalid content (refused, stays pending) or left alone,
// and every resolved request is answered a second time (refused).
struct Counts {
    var begun = 0, resolved = 0, resolvedTwice = 0, refused = 0
    static func + (a: Counts, b: Counts) -> Counts {
        Counts(begun: a.begun + b.begun, resolved: a.resolved + b.resolved,
               resolvedTwice: a.resolvedTwice + b.resolvedTwice, refused: a.refused + b.refused)
    }
}

let sixteen = 16, each = 40, total = 16 * 40
let requiredForm = #"{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}"#

func answerFor(_ n: Int, _ id: String) -> Answer? {
    switch n % 4 {
    case 0: return Answer(id: id, ok: true, data: #"{"a":"x"}"#)
    case 1: return Answer(id: id, ok: false, reason: .declined)
    case 2: return Answer(id: id, ok: true, data: "{}")
    default: return nil
    }
}

func settle(_ counts: inout Counts, _ n: Int, _ id: String, _ resolve: (Answer) throws -> Void) {
    guard let answer = answerFor(n, id) else { return }
    if failure({ try resolve(answer) }) != nil {
        counts.refused += 1
        return
    }
    counts.resolved += 1
    if failure({ try resolve(answer) }) == nil { counts.resolvedTwice += 1 } else { counts.refused += 1 }
}

func onSixteenThreads(_ work: @escaping @Sendable (Int) throws -> Counts) -> Counts {
    let lock = NSLock()
    var sum = Counts()
    DispatchQueue.concurrentPerform(iterations: sixteen) { t in
        let counts = (try? work(t)) ?? Counts()
        lock.lock()
        sum = sum + counts
        lock.unlock()
    }
    return sum
}

func expectCounts(_ what: String, _ counts: Counts, refused: Int, pending: Int) {
    expect("\(what): every request began", counts.begun == total, counts.begun)
    expect("\(what): half resolved", counts.resolved == total / 2, counts.resolved)
    expect("\(what): none resolved twice", counts.resolvedTwice == 0, counts.resolvedTwice)
    expect("\(what): the refusals add up", counts.refused == refused, counts.refused)
    expect("\(what): the rest is pending", pending == total - counts.resolved, pending)
}

group("16 threads on one session, bridge and round") {
    let options = SessionOptions(maxPending: UInt64(total))
    let session = Session(options: options)
    let sessionCounts = onSixteenThreads { t in
        var counts = Counts()
        for n in 0..<each {
            let id = "t\(t)-\(n)"
            _ = try session.begin(paramsJson: requiredForm, id: id, nowMs: 0, limits: nil)
            counts.begun += 1
            if failure({ _ = try session.begin(paramsJson: requiredForm, id: id, nowMs: 0, limits: nil) }) != nil { counts.refused += 1 }
            settle(&counts, n, id) { _ = try session.resolve(answer: $0, nowMs: 0) }
        }
        return counts
    }
    expectCounts("session", sessionCounts, refused: total + total / 2 + total / 4, pending: session.pending().count)

    let bridge = ReverseBridge(options: options)
    let bridgeCounts = onSixteenThreads { t in
        var counts = Counts()
        for n in 0..<each {
            let message = #"{"jsonrpc":"2.0","id":\#(t * 1000 + n),"method":"elicitation/create","params":\#(requiredForm)}"#
            guard case let .elicit(_, request) = bridge.receive(message: message, nowMs: 0, limits: nil) else { continue }
            counts.begun += 1
            settle(&counts, n, request.id) { _ = try bridge.respond(answer: $0, nowMs: 0) }
        }
        return counts
    }
    expectCounts("bridge", bridgeCounts, refused: total / 2 + total / 4, pending: bridge.pending().count)

    let entries = (0..<sixteen).flatMap { t in
        (0..<each).map { n in #""k\#(t)-\#(n)":{"method":"elicitation/create","params":\#(requiredForm)}"# }
    }
    let result = #"{"resultType":"input_required","inputRequests":{\#(entries.joined(separator: ","))},"requestState":"s"}"#
    let request = try ClientRequest.fromJson(json: #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#)
    let round = try InputRound.start(request: request, responseJson: result, options: options, nowMs: 0)
    var ids: [String: String] = [:]
    for keyed in round.requests() { ids[keyed.key] = keyed.request.id }
    let frozenIds = ids
    let roundCounts = onSixteenThreads { t in
        var counts = Counts()
        for n in 0..<each {
            counts.begun += 1
            settle(&counts, n, frozenIds["k\(t)-\(n)"] ?? "") { _ = try round.resolve(answer: $0, nowMs: 0) }
        }
        return counts
    }
    expectCounts("round", roundCounts, refused: total / 2 + total / 4, pending: round.missing().count)
    expect("round: the pending requests match", round.pending().count == total - roundCounts.resolved, round.pending().count)
}

// MARK: - The 2025 JSON-RPC bridge

group("2025 bridge") {
    let bridge = ReverseBridge()
    let message = #"{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}"#
    guard case .elicit(let rpcId, let request) = bridge.receive(message: message, nowMs: 1_000, limits: nil) else {
        expect("an elicitation/create is an elicitation to show", false)
        return
    }
    expect("the server's id is kept as spelt", rpcId == .number(spelling: "7"), rpcId)
    expect("the request id comes from the time and a sequence", request.id == "elc-3e8-1", request.id)
    expect("it waits for its answer", bridge.pending().map(\.request.id) == [request.id])
    expect("the bridge gives the form it prepared", bridge.form(requestId: request.id)?.fields().map(\.name) == ["name"])
    let response = try bridge.respond(answer: Answer(id: request.id, ok: true, data: #"{"name":"Ada"}"#), nowMs: 2_000)
    expect(
        "the answer is the JSON-RPC response to send",
        response == #"{"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":{"name":"Ada"}}}"#,
        response
    )
    if case .reply(let reply) = bridge.receive(message: "{", nowMs: 3_000, limits: nil) {
        let error = try JSON.parse(reply)["error"]
        expect("text that is not JSON gets a -32700 reply", error?["code"] == .number("-32700"), reply)
    } else {
        expect("text that is not JSON gets a reply", false)
    }
    let capabilities = try JSON.parse(bridge.capabilities())
    expect("capabilities advertise both modes", capabilities["elicitation"]?["form"] != nil && capabilities["elicitation"]?["url"] != nil, capabilities.text)
}

// MARK: - A 2026-07-28 multi round-trip

group("mrtr round") {
    let call = #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy","arguments":{"env":"prod"}}}"#
    let stamped = try withClientCapabilities(requestJson: call, modes: Modes())
    let request = try ClientRequest.fromJson(json: stamped)
    expect("the request is read", request.method() == "tools/call" && request.id() == .number(spelling: "1"), request.method())
    let needsInput = #"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"region":{"method":"elicitation/create","params":{"mode":"form","message":"Which region?","requestedSchema":{"type":"object","properties":{"region":{"type":"string","enum":["eu","us"]}},"required":["region"]}}}},"requestState":"st-1"}}"#
    guard case .needsInput(let input) = try classifyResult(responseJson: needsInput) else {
        expect("input_required is told apart", false)
        return
    }
    expect("the input requests are listed", input.inputRequests.map(\.key) == ["region"] && input.requestState == "st-1", input)
    let round = try InputRound.start(request: request, responseJson: needsInput, nowMs: 0)
    let asked = round.requests()
    expect("each elicitation becomes a request", asked.map(\.key) == ["region"] && asked.first?.request.prompt == "Which region?", asked)
    let missing = failure { _ = try round.retry(id: .number(spelling: "2"), partial: false) }
    expect("a retry waits for every response", missing?.kind == .missingResponses, missing)
    let keyed = try round.resolve(answer: Answer(id: asked.first?.request.id ?? "", ok: true, data: #"{"region":"eu"}"#), nowMs: 0)
    expect("the answer is keyed", keyed.key == "region" && keyed.result.action == .accept, keyed)
    expect("nothing is missing", round.missing().isEmpty, round.missing())
    let retry = try JSON.parse(round.retry(id: .number(spelling: "2"), partial: false))
    expect("the retry carries the responses", retry["params"]?["inputResponses"]?["region"]?["content"] == .fields(("region", .string("eu"))), retry.text)
    expect("the retry carries the exact state", retry["params"]?["requestState"] == .string("st-1"), retry.text)
    expect("the retry has its own id", retry["id"] == .number("2"), retry.text)
}

// MARK: - Snapshots: a round and a pending request written down and restored

/// Requests as the core writes them, each with its key: what two rounds are compared by.
func written(_ requests: [KeyedRequest]) throws -> [String] {
    try requests.map { "\($0.key): \(try requestToJson(request: $0.request))" }
}

group("snapshots") {
    let key = Data("k-2026: a seal key of 32 bytes or more".utf8)
    let previous = Data("k-2025: a seal key of 32 bytes or more".utf8)
    let call = #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy"}}"#
    let response = #"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"region":{"method":"elicitation/create","params":{"message":"Which region?","requestedSchema":{"type":"object","properties":{"region":{"type":"string","enum":["eu","us"]}},"required":["region"]}}},"login":{"method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://example.com/login","elicitationId":"e-1"}},"roots":{"method":"roots/list"}},"requestState":"st-1"}}"#
    let options = SessionOptions(ttlMs: 60_000, applyDefaults: true, rejectSecrets: true)
    let round = try InputRound.start(request: ClientRequest.fromJson(json: call), responseJson: response, options: options, nowMs: 1_000)
    let region = round.requests().first { $0.key == "region" }?.request.id ?? ""
    _ = try round.resolve(answer: Answer(id: region, ok: true, data: #"{"region":"eu"}"#), nowMs: 2_000)
    let sealed = try round.snapshot(key: key)
    expect("a sealed snapshot is tnseal1. and ASCII", sealed.starts(with: Data("tnseal1.".utf8)) && sealed.allSatisfy { $0 < 0x80 })
    expect("the same key seals the same bytes", try round.snapshot(key: key) == sealed)
    let plain = String(decoding: try round.snapshot(), as: UTF8.self)
    let id = round.snapshotId()
    expect("the snapshot's id is 43 URL-safe characters", id.count == 43 && id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, id)
    expect("unsealed, it is the versioned document", plain.hasPrefix(#"{"snapshot":"input-round","version":1,"#), plain)

    let restored = try InputRound.restore(snapshot: sealed, keys: [previous, key], nowMs: 3_000)
    expect("a restored round has the id of its snapshot", restored.snapshotId() == id, restored.snapshotId())
    expect("the options come back", restored.options() == options, restored.options())
    let pending = try written(restored.pending())
    expect("the pending requests come back, ids and expiry too", try pending == written(round.pending()), pending)
    expect("what was begun and is still waiting", try written(restored.requests()) == pending, restored.requests())
    expect("the same keys are missing", restored.missing() == ["login", "roots"], restored.missing())
    expect("the state comes back", restored.requestState() == "st-1", restored.requestState())
    for r in [round, restored] {
        _ = try r.resolve(answer: Answer(id: r.pending().first?.request.id ?? "", ok: true), nowMs: 3_000)
        try r.supply(key: "roots", resultJson: #"{"roots":[]}"#)
    }
    let retry = try round.retry(id: .number(spelling: "2"), partial: false)
    expect("a restored round gives the same retry", try restored.retry(id: .number(spelling: "2"), partial: false) == retry, retry)
    let again = failure { _ = try restored.retry(id: .number(spelling: "2"), partial: false) }
    expect("and takes its id as the original does", again?.kind == .invalidValue, again)

    var changed = sealed
    changed[changed.endIndex - 1] = changed.last == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
    let refusals: [(String, ToolnexusError?)] = [
        ("a changed byte", failure { _ = try InputRound.restore(snapshot: changed, keys: [key], nowMs: 3_000) }),
        ("a cut", failure { _ = try InputRound.restore(snapshot: sealed.prefix(sealed.count / 2), keys: [key], nowMs: 3_000) }),
        ("another key", failure { _ = try InputRound.restore(snapshot: sealed, keys: [previous], nowMs: 3_000) }),
        ("no keys", failure { _ = try InputRound.restore(snapshot: sealed, nowMs: 3_000) }),
        ("keys for an unsealed snapshot", failure { _ = try InputRound.restore(snapshot: round.snapshot(), keys: [key], nowMs: 3_000) }),
        ("a round's seal as a pending request", failure { _ = try Session.restore(snapshot: sealed, keys: [key], nowMs: 3_000) }),
    ]
    for (what, refused) in refusals {
        expect("\(what) is an invalid seal at \"\"", refused?.kind == .invalidSeal && refused?.pointer == "", refused)
    }
    let late = failure { _ = try InputRound.restore(snapshot: sealed, keys: [key], nowMs: 61_001) }
    expect("after the earliest expiry it is expired", late?.kind == .expired && late?.pointer == "/expiresAtMs", late)
    let clock = failure { _ = try InputRound.restore(snapshot: sealed, keys: [key]) }
    expect("without nowMs the clock says it expired", clock?.kind == .expired, clock)
    let small = failure { _ = try InputRound.restore(snapshot: round.snapshot(), limits: Limits(maxInputBytes: 64), nowMs: 3_000) }
    expect("a snapshot is read within the limits", small?.kind == .tooLarge, small)
    for short in [Data(), Data("k-2026".utf8), Data(count: 31)] {
        let sealing = failure { _ = try round.snapshot(key: short) }
        expect("a key under 32 bytes is refused to seal", sealing?.kind == .invalidValue && sealing?.pointer == "/key", sealing)
        let opening = failure { _ = try InputRound.restore(snapshot: sealed, keys: [key, short], nowMs: 3_000) }
        expect("and to restore, at its index", opening?.kind == .invalidValue && opening?.pointer == "/keys/1", opening)
    }

    let formOnly = try modesFromName(name: "form")
    let session = Session(options: SessionOptions(modes: formOnly, ttlMs: 10_000, applyDefaults: true))
    let request = try session.begin(paramsJson: ageForm, id: "q1", nowMs: 0, limits: nil)
    let blob = try session.snapshot(requestId: "q1", key: key)
    let pendingId = try session.snapshotId(requestId: "q1")
    let shortKey = failure { _ = try session.snapshot(requestId: "q1", key: Data(count: 16)) }
    expect("a pending request is not sealed with a short key", shortKey?.kind == .invalidValue && shortKey?.pointer == "/key", shortKey)
    let moved = try Session.restore(snapshot: blob, keys: [key], nowMs: 5)
    expect("a restored session has the id of its snapshot", try moved.snapshotId(requestId: "q1") == pendingId, pendingId)
    let held = try moved.pending().map { try requestToJson(request: $0) }
    expect("a restored session holds the request", try held == [requestToJson(request: request)], held)
    expect("with the options it was written with", moved.options() == session.options(), moved.options())
    expect("and the form prepared again", moved.form(requestId: "q1")?.fields() == session.form(requestId: "q1")?.fields())
    let young = Answer(id: "q1", ok: true, data: #"{"age":17}"#)
    let refusedThere = failure { _ = try session.resolve(answer: young, nowMs: 6) }
    let refusedHere = failure { _ = try moved.resolve(answer: young, nowMs: 6) }
    expect("it refuses as the original", refusedHere?.kind == .invalidContent && refusedHere == refusedThere, refusedHere)
    let adult = Answer(id: "q1", ok: true, data: #"{"age":18}"#)
    expect("and answers as the original", try moved.resolve(answer: adult, nowMs: 6) == session.resolve(answer: adult, nowMs: 6))
    let gone = failure { _ = try session.snapshot(requestId: "q1") }
    expect("only a pending request is written", gone?.kind == .unknownRequest && gone?.pointer == "/id", gone)
    let lapsed = failure { _ = try Session.restore(snapshot: blob, keys: [key], nowMs: 10_001) }
    expect("a pending request past its expiry is expired", lapsed?.kind == .expired && lapsed?.pointer == "/expiresAtMs", lapsed)
    let forever = Session(options: SessionOptions(modes: formOnly))
    _ = try forever.begin(paramsJson: ageForm, id: "n1", nowMs: 0, limits: nil)
    let never = failure { _ = try forever.snapshot(requestId: "n1") }
    expect("a request that never expires is not written down", never?.kind == .invalidValue && never?.pointer == "/id", never)
    expect("the new kinds have the suite's names", ErrorKind.invalidSeal.asStr() == "invalid_seal" && ErrorKind.expired.asStr() == "expired")
}

// MARK: - A task, followed until it ends

group("task") {
    let created = #"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"t1","status":"working","ttlMs":60000,"pollIntervalMs":500}}"#
    expect("a result that is no task starts nothing", try followTask(responseJson: #"{"content":[]}"#, era: .modern, nowMs: 0) == nil)
    guard let driver = try followTask(responseJson: created, era: .modern, nowMs: 1_000) else {
        expect("a task starts a driver", false)
        return
    }
    // Named `TaskInfo`, so that Swift concurrency's `Task` stays what it is in an app.
    let task: TaskInfo = driver.task()
    _ = Task<Void, Never> {}
    expect("the task is read", task.taskId == "t1" && task.status == .working && task.ttlMs == 60_000 && task.pollIntervalMs == 500, task)
    expect("the first poll is one interval later", driver.nextPollAt() == 1_500 && !driver.pollDue(nowMs: 1_499) && driver.pollDue(nowMs: 1_500))
    let get = driver.get()
    expect("tasks/get names the task", get.method() == "tasks/get" && get.paramsJson() == #"{"taskId":"t1"}"#, get.paramsJson())
    let fraction = failure { _ = try get.toRequest(id: .number(spelling: "1.5")) }
    expect("an id with a fraction is refused", fraction?.kind == .invalidValue, fraction)
    let asked = #"{"taskId":"t1","status":"input_required","inputRequests":{"region":{"method":"elicitation/create","params":{"message":"Which region?","requestedSchema":{"type":"object","properties":{"region":{"type":"string","enum":["eu","us"]}},"required":["region"]}}}}}"#
    guard case .inputRequired(let requests) = try driver.read(responseJson: asked, nowMs: 1_500) else {
        expect("input is asked", false)
        return
    }
    expect("input is asked once, as a Request", requests.map(\.key) == ["region"] && requests.first?.request.id == "elc-5dc-1", requests)
    expect("the form is prepared", driver.form(requestId: "elc-5dc-1")?.fields().first?.widget == .singleSelect)
    /// The requests of an `InputRequired` event; nil for any other event.
    func requestsOf(_ event: TaskEvent) -> [KeyedRequest]? {
        guard case .inputRequired(let requests) = event else { return nil }
        return requests
    }
    let again = try driver.read(responseJson: asked, nowMs: 2_000)
    expect("a request shown is not shown again", requestsOf(again)?.isEmpty == true, again)
    let early = failure { _ = try driver.update(partial: false) }
    expect("an update waits for every answer", early?.kind == .missingResponses, early)
    _ = try driver.resolve(answer: Answer(id: "elc-5dc-1", ok: true, data: #"{"region":"eu"}"#), nowMs: 2_100)
    let update = try driver.update(partial: false)
    expect(
        "tasks/update carries the answer",
        try update?.toRequest(id: .text(value: "u-1")) == #"{"jsonrpc":"2.0","id":"u-1","method":"tasks/update","params":{"taskId":"t1","inputResponses":{"region":{"action":"accept","content":{"region":"eu"}}}}}"#
    )
    expect("nothing is sent twice", try driver.update(partial: true) == nil && driver.sent() == ["region"])
    let other = failure { _ = try driver.read(responseJson: #"{"taskId":"t2","status":"working"}"#, nowMs: 2_500) }
    expect("another task is refused at /taskId", other?.kind == .invalidValue && other?.pointer == "/taskId", other)
    let done = try driver.read(responseJson: #"{"taskId":"t1","status":"completed","result":{"content":[],"n":1.50}}"#, nowMs: 3_000)
    guard case .completed(let resultJson) = done else {
        expect("the task completes", false, done)
        return
    }
    expect("the result keeps its bytes", resultJson == #"{"content":[],"n":1.50}"# && driver.isDone(), resultJson)
    guard let handshake = try followTask(responseJson: #"{"task":{"taskId":"h1","status":"working","pollInterval":100}}"#, era: .handshake, nowMs: 0) else {
        expect("the handshake era starts a driver", false)
        return
    }
    expect("the handshake era reads the nested task", handshake.era() == .handshake && handshake.pollIntervalMs() == 100)
    expect("tasks/result names the task", handshake.result().method() == "tasks/result")
    let waiting = try handshake.read(responseJson: #"{"taskId":"h1","status":"input_required"}"#, nowMs: 100)
    expect("input arrives through tasks/result", requestsOf(waiting)?.isEmpty == true, waiting)
}

// MARK: - The form as a web page, and its post read back

// A booking form with one field of every kind, a hostile server's words in its prompt and title.
// Controls are named by position (tn-0 … tn-10); select values are option indexes.
let bookingSchema = #"{"type":"object","properties":{"# +
    #""name":{"type":"string","title":"Name <script>alert(1)</script>","minLength":2},"# +
    #""email":{"type":"string","format":"email"},"site":{"type":"string","format":"uri"},"# +
    #""day":{"type":"string","format":"date"},"at":{"type":"string","format":"date-time"},"# +
    #""ratio":{"type":"number","maximum":1},"nights":{"type":"integer","minimum":1,"maximum":14},"breakfast":{"type":"boolean"},"# +
    #""room":{"type":"string","oneOf":[{"const":"single","title":"Single"},{"const":"double","title":"Double \"deluxe\""}]},"# +
    #""city":{"type":"string","enum":["a","b","c","d","e","f"]},"# +
    #""extras":{"type":"array","items":{"type":"string","enum":["parking","wifi","gym"]},"maxItems":2}},"# +
    #""required":["name","nights","breakfast","room"]}"#
let booking = #"{"mode":"form","message":"Book </form><script>steal()</script> & save","requestedSchema":"# + bookingSchema + "}"
let booked = "tn-request=w1&tn-0=Ada&tn-1=ada%40example.com&tn-2=https%3A%2F%2Fexample.com%2Fa&tn-3=2026-12-24" +
    "&tn-4=2026-12-24T18%3A30&tn-5=0.50&tn-6=3&tn-7=false&tn-8=1&tn-9=5&tn-10=2&tn-10=0&tn-action=accept"
let requestIdInput = "<input type=\"hidden\" name=\"tn-request\" value=\"w1\">\n"

/// A post as the WebView gives its body.
func body(_ text: String) -> FormPost { .body(bytes: Data(text.utf8)) }

group("web form page") {
    let request = try elicitationToRequest(paramsJson: booking, id: "w1")
    let options = HtmlOptions(asker: "Acme <Travel>", hidden: [FormPair(name: "csrf", value: "t0k\"><img src=x>")])
    let page = try requestHtml(request: request, options: options)
    expect("the page is one form that posts", page.hasPrefix("<form class=\"tn-form tn-elicitation\" method=\"post\"") && page.hasSuffix("</form>\n"), page.prefix(80))
    expect("the same request gives the same bytes", try requestHtml(request: request, options: options) == page)
    expect("the request's id travels in a hidden input", page.contains(requestIdInput))
    expect("a hidden field's value is escaped", page.contains("<input type=\"hidden\" name=\"csrf\" value=\"t0k&quot;&gt;&lt;img src=x&gt;\">"))
    expect("the asker is the host's, escaped", page.contains("<bdi>Acme &lt;Travel&gt;</bdi> asks:"))
    expect(
        "the server's words are escaped wherever they go",
        page.contains("Book &lt;/form&gt;&lt;script&gt;steal()&lt;/script&gt; &amp; save") && page.contains("Name &lt;script&gt;alert(1)&lt;/script&gt;") &&
            page.contains("Double \"deluxe\"") && !page.contains("<script") && !page.contains("<img") &&
            page.components(separatedBy: "</form>").count == 2,
        page
    )
    expect("a required integer is a number control with its bounds", page.contains("<input type=\"number\" id=\"tn-f6\" name=\"tn-6\" step=\"1\" min=\"1\" max=\"14\" required"))
    expect("a long single-select is a select", page.contains("<select id=\"tn-f9\" name=\"tn-9\">"))
    expect("a multi-select is checkboxes", page.contains("<input type=\"checkbox\" id=\"tn-f10-0\" name=\"tn-10\" value=\"0\">"))
    expect("three buttons", ["accept", "decline", "cancel"].allSatisfy { page.contains("name=\"tn-action\" value=\"\($0)\"") })
    let defaults = try requestHtml(request: request)
    expect("without options, the core's defaults", try defaults == requestHtml(request: request, options: HtmlOptions()) && !defaults.contains("asks:"))
    let prefixed = try requestHtml(request: request, options: HtmlOptions(classPrefix: "app-"))
    expect("classes and ids take the prefix", prefixed.contains("class=\"app-form app-elicitation\"") && prefixed.contains("id=\"app-f0\"") && !prefixed.contains("tn-f0"))
    expect("the style sheet has the same classes", try htmlStylesheet().contains(".tn-form{") && htmlStylesheet(classPrefix: "app-").contains(".app-form{"))
    expect(
        "a prepared form's page is the request's without its id",
        try formHtml(form: request.form(), message: request.prompt, options: options) == page.replacingOccurrences(of: requestIdInput, with: "")
    )
}

group("web form round trip") {
    let request = try elicitationToRequest(paramsJson: booking, id: "w1")
    let options = HtmlOptions(hidden: [FormPair(name: "csrf", value: "t0k")], utcOffset: "+01:00")
    let answer = try answerFromPost(request: request, post: body("csrf=t0k&" + booked), options: options)
    let data = #"{"name":"Ada","email":"ada@example.com","site":"https://example.com/a","day":"2026-12-24","# +
        #""at":"2026-12-24T18:30:00+01:00","ratio":0.50,"nights":3,"breakfast":false,"room":"double","city":"f","extras":["parking","gym"]}"#
    expect("each field is read by its own parser, in schema order", answer == Answer(id: "w1", ok: true, data: data), answer)
    let pairs = booked.split(separator: "&").map { piece -> FormPair in
        let parts = piece.split(separator: "=", maxSplits: 1).map(String.init)
        return FormPair(name: parts[0], value: parts.count > 1 ? parts[1].removingPercentEncoding ?? "" : "")
    }
    expect("pairs the app decoded read the same", try answerFromPost(request: request, post: .pairs(pairs: pairs), options: options) == answer)
    let session = Session()
    let begun = try session.begin(paramsJson: booking, id: "w1", nowMs: 0)
    let reply = try elicitResultToJson(result: session.resolve(answer: answerFromPost(request: begun, post: body(booked)), nowMs: 0))
    expect("the answer is the server's reply", reply.hasPrefix(#"{"action":"accept","content":{"name":"Ada","#) && reply.contains(#""at":"2026-12-24T18:30:00Z""#), reply)
    let sparse = try answerFromPost(request: request, post: body("tn-request=w1&tn-0=Ada&tn-6=2&tn-7=true&tn-8=0&tn-9=&tn-action=accept"))
    expect("optional fields left empty are left out", sparse.data == #"{"name":"Ada","nights":2,"breakfast":true,"room":"single"}"#, sparse.data)
    let withDefault = try elicitationToRequest(paramsJson: #"{"message":"?","requestedSchema":{"type":"object","properties":{"n":{"type":"integer","default":7}}}}"#, id: "d1")
    let filled = try answerFromPost(request: withDefault, post: body("tn-action=accept"), options: HtmlOptions(applyDefaults: true))
    expect("applyDefaults fills what was left empty", filled.data == #"{"n":7}"#, filled)
    expect("without it, nothing is filled", try answerFromPost(request: withDefault, post: body("tn-action=accept")) == Answer(id: "d1", ok: true))
}

group("web form decline and cancel") {
    let request = try elicitationToRequest(paramsJson: booking, id: "w1")
    let declined = try answerFromPost(request: request, post: body("tn-request=w1&tn-6=99&tn-action=decline"))
    expect("Decline is a refusal, whatever the fields hold", declined == Answer(id: "w1", ok: false, reason: .declined), declined)
    let cancelled = try answerFromPost(request: request, post: .pairs(pairs: [FormPair(name: "tn-action", value: "cancel")]))
    expect("Cancel is a cancellation", cancelled == Answer(id: "w1", ok: false, reason: .cancelled), cancelled)
    expect("which MCP reads as decline and cancel", try answerToElicitResult(answer: declined).action == .decline && answerToElicitResult(answer: cancelled).action == .cancel)

    let link = try elicitationToRequest(paramsJson: #"{"mode":"url","message":"Log in","url":"https://bücher.example/auth","elicitationId":"e-1"}"#, id: "u1")
    let consent = try requestHtml(request: link)
    expect("a URL request is a consent with both spellings of its host", consent.contains("tn-consent") && consent.contains("bücher.example") && consent.contains("xn--bcher-kva.example"), consent)
    expect("accepting opens nothing: an answer without data", try answerFromPost(request: link, post: body("tn-request=u1&tn-action=accept")) == Answer(id: "u1", ok: true))
    let rejected = try elicitationToRequest(paramsJson: #"{"mode":"url","message":"Log in","url":"javascript:alert(1)","elicitationId":"e-2"}"#, id: "u2")
    let rejectedPage = try requestHtml(request: rejected)
    expect("a rejected URL offers no Accept and no link", !rejectedPage.contains("value=\"accept\"") && !rejectedPage.contains("href="), rejectedPage)
    let forced = failure { _ = try answerFromPost(request: rejected, post: body("tn-action=accept")) }
    expect("and a forged Accept is refused at /tn-action", forced?.kind == .invalidValue && forced?.pointer == "/tn-action", forced)
}

group("web form invalid accept") {
    let request = try elicitationToRequest(paramsJson: booking, id: "w1")
    let post = body("tn-request=w1&tn-0=A&tn-1=%22%3E%3Cscript%3Ex()%3C%2Fscript%3E&tn-6=20&tn-7=true&tn-8=0&tn-10=0&tn-10=1&tn-10=2&tn-action=accept")
    let refused = failure { _ = try answerFromPost(request: request, post: post) }
    expect(
        "every value the form refuses is a violation, in field order",
        refused?.kind == .invalidContent && refused?.pointer == "" &&
            refused?.violations.map(\.pointer) == ["/name", "/email", "/nights", "/extras"] &&
            refused?.violations.map(\.keyword) == ["minLength", "format", "maximum", "maxItems"],
        refused?.violations
    )
    let again = try requestHtml(request: request, post: post, error: refused)
    expect("a summary names each problem", again.contains("There are 4 problems:") && again.contains("<a href=\"#tn-f6\"><bdi>nights must be at most 14</bdi></a>"), again)
    expect(
        "each field at fault is marked",
        again.components(separatedBy: "class=\"tn-field tn-invalid\"").count == 5 &&
            again.contains("id=\"tn-f10-2\" name=\"tn-10\" value=\"2\" checked aria-invalid=\"true\""),
        again
    )
    expect("with its message beside it", again.contains("<p class=\"tn-error\" id=\"tn-f10-error\"><bdi>extras allows at most 2 choices</bdi></p>"), again)
    expect("the values posted are kept", again.contains("value=\"A\""), again)
    expect("a hostile value is kept escaped", again.contains("value=\"&quot;&gt;&lt;script&gt;x()&lt;/script&gt;\"") && !again.contains("<script"), again)
    // A prepared form's page carries no request id, so neither does its post.
    let anonymous = body("tn-0=A&tn-6=20&tn-7=true&tn-8=0&tn-action=accept")
    let itsError = failure { _ = try answerFromPost(request: request, post: anonymous) }
    let byRequest = try requestHtml(request: request, post: anonymous, error: itsError)
    expect(
        "a prepared form's re-render is the request's without its id",
        try byRequest.contains("tn-field tn-invalid") &&
            formHtml(form: request.form(), message: request.prompt, post: anonymous, error: itsError) == byRequest.replacingOccurrences(of: requestIdInput, with: ""),
        byRequest
    )
    // An error from elsewhere (here the session's) is shown by field, as the post's own.
    let session = Session()
    _ = try session.begin(paramsJson: booking, id: "w1", nowMs: 0)
    let theirs = failure { _ = try session.resolve(answer: Answer(id: "w1", ok: true, data: #"{"name":"A"}"#), nowMs: 0) }
    let page = try requestHtml(request: request, post: post, error: theirs)
    let messages = (theirs?.violations ?? []).map {
        "<bdi>" + $0.message.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;") + "</bdi>"
    }
    expect(
        "another error is shown by field",
        !messages.isEmpty && page.contains("aria-invalid=\"true\"") && messages.allSatisfy { page.contains($0) },
        page
    )
    let general = try requestHtml(request: request, error: .Failed(kind: .unknownRequest, pointer: "/id", detail: "this request was answered already", violations: []))
    expect("any error can be shown", general.contains("this request was answered already") && general.contains("There is a problem:"), general)
}

group("web form refused") {
    let request = try elicitationToRequest(paramsJson: booking, id: "w1")
    let cases: [(FormPost, ErrorKind, String)] = [
        (body("tn-99=x&tn-action=accept"), .unknownField, "/tn-99"),
        (body("tn-request=w2&tn-action=cancel"), .unknownRequest, "/tn-request"),
        (body("tn-0=Ada"), .missingField, "/tn-action"),
        (body("tn-action=accept&tn-action=cancel"), .duplicateKey, "/tn-action"),
        (body("tn-action=send"), .invalidValue, "/tn-action"),
        (body("tn-8=7&tn-action=accept"), .invalidValue, "/room"),
        (body("tn-0=%E2%8&tn-action=accept"), .invalidValue, "/tn-0"),
        (.body(bytes: Data([0x74, 0x6E, 0x2D, 0x30, 0x3D, 0xFF])), .invalidUtf8, "/tn-0"),
    ]
    for (post, kind, pointer) in cases {
        let refused = failure { _ = try answerFromPost(request: request, post: post) }
        expect("a post the page did not write is refused: \(pointer)", refused?.kind == kind && refused?.pointer == pointer, refused)
    }
    let unreadable = failure { _ = try answerFromPost(request: request, post: body("tn-0=%zz")) }
    let unread = failure { _ = try requestHtml(request: request, post: body("tn-0=%zz"), error: unreadable) }
    expect("a post that cannot be read cannot be shown again either", unread?.kind == .invalidValue && unread?.pointer == "/tn-0", unread)
    let tooMany = failure { _ = try answerFromPost(request: request, post: body("a=1&b=2&c=3"), limits: Limits(maxObjectMembers: 2)) }
    expect("a post beyond the limits is refused before it is read", tooMany?.kind == .tooManyMembers && tooMany?.pointer == "", tooMany)
    let tooLarge = failure {
        _ = try answerFromPost(request: request, post: .pairs(pairs: [FormPair(name: "tn-0", value: String(repeating: "x", count: 64))]), limits: Limits(maxInputBytes: 32))
    }
    expect("pairs too", tooLarge?.kind == .tooLarge, tooLarge)
    let refusedOptions: [(HtmlOptions, String)] = [
        (HtmlOptions(classPrefix: "9lives"), "/classPrefix"),
        (HtmlOptions(hidden: [FormPair(name: "tn-x", value: "1")]), "/hidden/tn-x"),
        (HtmlOptions(hidden: [FormPair(name: "csrf", value: "1"), FormPair(name: "csrf", value: "2")]), "/hidden/csrf"),
        (HtmlOptions(utcOffset: "+1"), "/utcOffset"),
    ]
    for (options, pointer) in refusedOptions {
        let bad = failure { _ = try requestHtml(request: request, options: options) }
        expect("options the core refuses are refused: \(pointer)", bad?.kind == .invalidValue && bad?.pointer == pointer, bad)
    }
    expect("so is a class prefix for the style sheet", failure { _ = try htmlStylesheet(classPrefix: "") }?.pointer == "/classPrefix")
    let noForm = failure { _ = try requestHtml(request: Request(id: "x", kind: "approval", prompt: "?")) }
    expect("a request with neither form nor URL cannot be shown", noForm?.kind == .missingField && noForm?.pointer == "/data/schema", noForm)
}

group("web view readme") {
    // bindings/ffi/README.md's WebView example, as written there; the names it leaves to the
    // app are given here.
    let session = Session()
    let request = try session.begin(paramsJson: #"{"message":"How many?","requestedSchema":{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]}}"#)
    let token = "t0k"
    var shown = ""
    var reply = ""
    func readme(_ body: Data) throws {
        // From the README:
        let options = HtmlOptions(asker: "Acme Travel", hidden: [FormPair(name: "csrf", value: token)])
        let page = try requestHtml(request: request, options: options)   // one <form method="post">, for your page
        let css = try htmlStylesheet()                                    // serve it from the page's origin

        // What the form posted: the body as the WebView gives it, or .pairs you decoded.
        let post = FormPost.body(bytes: body)
        do {
            let answer = try answerFromPost(request: request, post: post, options: options)
            reply = try elicitResultToJson(result: session.resolve(answer: answer, nowMs: nil))
        } catch let error as ToolnexusError where error.kind == .invalidContent {
            shown = try requestHtml(request: request, options: options, post: post, error: error)
        }
        // (end of the README's example)
        expect("the README's page and style sheet", page.contains("Acme Travel") && !css.isEmpty)
    }
    try readme(Data("csrf=t0k&tn-request=\(request.id)&tn-0=0&tn-action=accept".utf8))
    expect("the README's re-render", shown.contains("aria-invalid=\"true\"") && reply.isEmpty, shown)
    try readme(Data("csrf=t0k&tn-request=\(request.id)&tn-0=2&tn-action=accept".utf8))
    expect("the README's reply", reply == #"{"action":"accept","content":{"n":2}}"#, reply)
}

// MARK: - Errors

group("errors") {
    do {
        _ = try requestFromJson(json: "{")
        expect("bad JSON throws", false)
    } catch ToolnexusError.Failed(let kind, let pointer, let detail, let violations) {
        expect("bad JSON is InvalidJson at the whole input", kind == .invalidJson && pointer == "", (kind, pointer))
        expect("the kind has the suite's name", kind.asStr() == "invalid_json")
        expect("the detail says what is wrong", !detail.isEmpty && violations.isEmpty, detail)
    }
    let located = failure { _ = try answerFromJson(json: #"{"id":"a","ok":"yes"}"#) }
    expect("an error describes itself in the core's words", located.map { "\($0)" }?.hasPrefix("wrong_type at /ok: ") == true, located)
    let emptyId = failure { _ = try elicitationToRequest(paramsJson: ageForm, id: "") }
    expect("an empty id is refused at /id", emptyId?.kind == .invalidValue && emptyId?.pointer == "/id", emptyId)
    let nested = failure { _ = try answerToElicitResult(answer: Answer(id: "a", ok: true, data: #"{"x":{"y":1}}"#)) }
    expect("an object in content is WrongType at its member", nested?.kind == .wrongType && nested?.pointer == "/data/x", nested)
    let notANumber = failure {
        _ = try elicitResultToJson(result: ElicitResult(action: .accept, content: [ContentEntry(name: "n", value: .number(spelling: "NaN"))]))
    }
    expect("a number spelt wrong is refused where it is", notANumber?.pointer == "/content/n", notANumber)
    let deep = failure { _ = try requestFromJson(json: "[[[1]]]", limits: Limits(maxDepth: 2)) }
    expect("limits apply", deep?.kind == .tooDeep, deep)
    let bytes = failure { _ = try answerFromJsonBytes(json: Data([0x22, 0xFF, 0x22])) }
    expect("bytes that are not UTF-8 are InvalidUtf8", bytes?.kind == .invalidUtf8, bytes)
    let invalid = failure {
        _ = try prepareContent(schemaJson: #"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#, contentJson: "{}")
    }
    expect("invalid content carries its violations", invalid?.kind == .invalidContent && invalid?.violations.first?.keyword == "required", invalid)
}

group("authorization") {
    let stored = #"{"version":1,"access_token":"at-secret-123456","token_type":"Bearer","refresh_token":"rt-secret-123456","issuer":"https://as.example","token_endpoint":"https://as.example/token","client":{"client_id":"app","auth_method":"none","issuer":"https://as.example"}}"#
    let config = try AuthConfig(clientName: "Example", redirectUri: "exampleapp://oauth", clientId: "app",
                                clientSecret: "client-secret-123456", clientIssuer: "https://as.example")
    expect("a configuration's description hides its secret", !"\(config)".contains("client-secret-123456") && !String(reflecting: config).contains("client-secret-123456"), config)
    let grant = try Grant.fromJson(json: stored)
    expect("a grant's description hides its tokens", !"\(grant)".contains("at-secret") && !"\(grant)".contains("rt-secret"), grant)
    expect("a grant goes to the Keychain and back as the same text", grant.toJson() == stored, grant.toJson())
    expect("a Bearer grant's header", grant.authorization() == "Bearer at-secret-123456" && !grant.isDpop())
    do {
        _ = try Grant.fromJson(json: stored.replacingOccurrences(of: #""version":1"#, with: #""version":2"#))
        expect("a stored grant of another version is refused", false)
    } catch AuthError.Failed(let kind, let pointer, _) {
        expect("a stored grant of another version is refused", kind == .invalidGrant && pointer == "/version", (kind, pointer))
    }
    do {
        _ = try AuthConfig(clientName: "Example", redirectUri: "exampleapp://oauth", assertion: "jwt-123456")
        expect("an option of another grant is refused", false)
    } catch AuthError.Failed(let kind, _, let detail) {
        expect("an option of another grant is refused, named as Swift names it", kind == .invalidConfig && detail.contains("assertion"), detail)
    }
    let policy = AuthPolicy()
    let first = try policy.decide(status: 401, wwwAuthenticate: #"Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource""#)
    if case .authorize(let challenge) = first {
        expect("a first 401 asks for an authorization", challenge.resourceMetadata != nil, challenge)
    } else {
        expect("a first 401 asks for an authorization", false, first)
    }
    policy.holdsNewGrant()
    expect("a request sent before the grant is sent again with it", try policy.decide(status: 401, wwwAuthenticate: "Bearer", held: grant) == .resend)
    do {
        _ = try startAuthFlow(resourceUrl: "https://mcp.example/mcp", challenge: parseChallenge(status: 401, wwwAuthenticate: "Bearer"),
                              config: config, entropy: Data(count: 10))
        expect("entropy of another length is refused", false)
    } catch AuthError.Invalid(let kind, _, _) {
        expect("entropy of another length is an invalid value", kind == .invalidValue, kind)
    }
    let begun = try startAuthFlow(resourceUrl: "https://mcp.example/mcp", challenge: parseChallenge(status: 401, wwwAuthenticate: "Bearer"),
                                  config: config, entropy: Data(count: 64))
    if case .fetch(let request) = begun.next {
        expect("a flow begins with its resource metadata", request.method() == "GET" && request.url().hasPrefix("https://mcp.example/.well-known/"), request)
    } else {
        expect("a flow begins with a request", false, begun.next)
    }
}

for failure in failures { print("FAIL \(failure)") }
print("api (swift): \(passed) passed, \(failures.count) failed")
if !failures.isEmpty || passed == 0 { exit(1) }
