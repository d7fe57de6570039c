// Memory of the Swift binding over many calls: every entry point an app uses, each called
// 100,000 times (the first argument), the resident set size sampled after a warm-up and after
// each entry point. A leak of a few bytes a call shows as megabytes; the run reports every
// figure and exits with status 1 when the RSS grew by more than 16 MiB.

import Foundation
import Toolnexus

let schema = #"{"type":"object","properties":{"name":{"type":"string","maxLength":20},"age":{"type":"integer","minimum":18},"plan":{"type":"string","enum":["free","pro"]}},"required":["name"]}"#
let params = #"{"mode":"form","message":"Sign up","requestedSchema":\#(schema)}"#
let content = #"{"name":"Ada","age":36,"plan":"pro"}"#
let answerText = #"{"id":"r","ok":true,"data":\#(content)}"#
let elicit = #"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":\#(params)}"#
let call = #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#
let needsInput = #"{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":\#(params)}},"requestState":"s"}"#
let created = #"{"resultType":"task","taskId":"t1","status":"working","pollIntervalMs":500}"#
let asking = #"{"taskId":"t1","status":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":\#(params)}}}"#
let form = try! Form(schemaJson: schema)
let huge = String(repeating: "x", count: 5 * 1024 * 1024)
let webRequest = try! elicitationToRequest(paramsJson: params, id: "r")
let webPost = Data("tn-request=r&tn-0=Ada&tn-1=17&tn-2=1&tn-action=accept".utf8)

func refused(_ body: () throws -> Void) {
    do {
        try body()
    } catch {
        return
    }
    fatalError("expected a refusal")
}

let entryPoints: [(String, () throws -> Void)] = [
    ("elicitationToRequest", { _ = try elicitationToRequest(paramsJson: params, id: "r") }),
    ("elicitationToScreen", { _ = try elicitationToScreen(paramsJson: params, id: "r") }),
    ("answerToElicitResultJson", { _ = try answerToElicitResultJson(answer: try answerFromJson(json: answerText)) }),
    ("answerFromJson + answerToElicitResult + elicitResultToJson", {
        _ = try elicitResultToJson(result: try answerToElicitResult(answer: try answerFromJson(json: answerText)))
    }),
    ("checkSchema", { _ = try checkSchema(schemaJson: schema) }),
    ("validateContent", { _ = try validateContent(schemaJson: schema, contentJson: content) }),
    ("Form(schema).fields", { _ = try Form(schemaJson: schema).fields() }),
    ("form.validate", { _ = try form.validate(contentJson: content) }),
    ("form.parse", { _ = try form.parse(fieldName: "age", text: "42") }),
    ("reviewUrl", { _ = reviewUrl(url: "https://bücher.example/kaufen?x=1") }),
    ("Session begin + resolve", {
        let session = Session()
        _ = try session.begin(paramsJson: params, id: "r", nowMs: 0, limits: nil)
        _ = try session.resolve(answer: Answer(id: "r", ok: true, data: content), nowMs: 0)
    }),
    ("ReverseBridge receive + respond", {
        let bridge = ReverseBridge()
        if case let .elicit(_, request) = bridge.receive(message: elicit, nowMs: 0, limits: nil) {
            _ = try bridge.respond(answer: Answer(id: request.id, ok: false, reason: .declined), nowMs: 0)
        }
    }),
    ("InputRound start + resolve + retry", {
        let round = try InputRound.start(request: try ClientRequest.fromJson(json: call), responseJson: needsInput, nowMs: 0)
        if let asked = round.requests().first {
            _ = try round.resolve(answer: Answer(id: asked.request.id, ok: true, data: content), nowMs: 0)
        }
        _ = try round.retry(id: .number(spelling: "2"), partial: false)
    }),
    ("TaskDriver read + resolve + update", {
        if let driver = try followTask(responseJson: created, era: .modern, nowMs: 0),
           case .inputRequired(let requests) = try driver.read(responseJson: asking, nowMs: 1),
           let asked = requests.first {
            _ = try driver.resolve(answer: Answer(id: asked.request.id, ok: true, data: content), nowMs: 2)
            _ = try driver.update(partial: false)?.toRequest(id: .number(spelling: "2"))
        }
    }),
    ("requestHtml + answerFromPost + the re-render with its error", {
        let post = FormPost.body(bytes: webPost)
        do {
            _ = try answerFromPost(request: webRequest, post: post)
            fatalError("expected a refusal")
        } catch let error as ToolnexusError {
            _ = try requestHtml(request: webRequest)
            _ = try requestHtml(request: webRequest, post: post, error: error)
        }
    }),
    ("refused: invalid JSON", { refused { _ = try answerFromJson(json: #"{"id":"#) } }),
    ("refused: a record over the size limit", {
        refused { _ = try answerToElicitResult(answer: Answer(id: huge, ok: false)) }
    }),
]

func rss() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
          let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

let calls = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000
for (_, body) in entryPoints { for _ in 0..<2_000 { try body() } }
let warm = rss()
print("memory (swift): RSS \(String(format: "%.1f", Double(warm) / 1048576)) MiB after a warm-up; \(calls) calls of each entry point")
print("| entry point | RSS after | growth since warm-up |")
print("|---|---|---|")
var worst = 0
for (name, body) in entryPoints {
    // The over-limit record copies 5 MiB a call across the boundary: a hundredth as many.
    let times = name.contains("size limit") ? calls / 100 : calls
    for _ in 0..<times { try body() }
    let now = rss()
    worst = max(worst, now - warm)
    let mib = String(format: "%.1f", Double(now) / 1048576)
    print("| \(name) | \(mib) MiB | \(now - warm >= 0 ? "+" : "")\((now - warm) / 1024) KiB |")
}
let flat = worst <= 16 * 1024 * 1024
print("memory (swift): \(flat ? "flat" : "GROWING"): at most \(worst / 1024) KiB")
exit(flat ? 0 : 1)
