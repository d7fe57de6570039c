// Benchmark: the cost of a call from Swift, of the library built for apps, over the payloads of
// the core's benchmark (the folder is the first argument): the entry points `Bench.kt` times
// from Kotlin, in the same order. Run by `cargo xtask bench ffi`, built for release. Reported,
// never enforced: each figure is the median of several rounds.

import Foundation
import Toolnexus

/// Rounds per figure, the least time a round should take, and the bounds on its calls.
let rounds = 7
let roundNanos: UInt64 = 40_000_000
let maxCalls = 20_000
let minCalls = 20

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Microseconds per call of `call`: the median over `rounds` rounds, each of as many calls as
/// fill `roundNanos` (between `minCalls` and `maxCalls`), after a warm-up as long as a round.
func microsPerCall(_ call: () throws -> Void) rethrows -> Double {
    var calls = minCalls
    while true {
        let started = now()
        for _ in 0..<calls { try call() }
        if now() - started >= roundNanos || calls >= maxCalls { break }
        calls = min(calls * 2, maxCalls)
    }
    var times: [Double] = []
    for _ in 0..<rounds {
        let started = now()
        for _ in 0..<calls { try call() }
        times.append(Double(now() - started) / 1e3 / Double(calls))
    }
    return times.sorted()[rounds / 2]
}

func row(_ name: String, _ call: () throws -> Void) rethrows {
    let micros = try microsPerCall(call)
    print("  " + name.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: " %9.2f", micros))
}

/// What a person leaving every default and picking each first option would send.
func defaultContent(_ fields: [FormField]) -> [ContentEntry] {
    fields.compactMap { field in
        let first = field.options.first?.value
        let value: ContentValue?
        if let given = field.defaultValue {
            value = given
        } else if let first {
            value = field.widget == .multiSelect ? .textList(values: [first]) : .text(value: first)
        } else {
            value = nil
        }
        return value.map { ContentEntry(name: field.name, value: $0) }
    }
}

guard CommandLine.arguments.count > 1 else {
    FileHandle.standardError.write("bench: give the folder of the payloads\n".data(using: .utf8)!)
    exit(2)
}
let folder = URL(fileURLWithPath: CommandLine.arguments[1])
let payloads = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil))?
    .filter { $0.pathExtension == "json" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent } ?? []
if payloads.isEmpty {
    FileHandle.standardError.write("bench: no payloads in \(folder.path)\n".data(using: .utf8)!)
    exit(2)
}

do {
    print("Swift: median of \(rounds) rounds of up to \(maxCalls) calls, in µs per call.")
    try row("formatId (a call, a string back: the crossing alone)") { _ = formatId(unixMs: 1, sequence: 2) }
    for file in payloads {
        let params = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let request = try elicitationToRequest(paramsJson: params, id: "elc-1")
        let form = try request.form()
        let fields = form.fields()
        // The answer's content: the payload's own when it has one, else the defaults.
        let given = try? String(contentsOf: folder.appendingPathComponent("content/\(file.lastPathComponent)"), encoding: .utf8)
        let contentJson = try given?.trimmingCharacters(in: .whitespacesAndNewlines) ?? contentToJson(content: defaultContent(fields))
        let answer = Answer(id: "elc-1", ok: true, data: contentJson)
        print("\(file.lastPathComponent): \(params.utf8.count) bytes of params, \(fields.count) fields, \(contentJson.utf8.count) bytes of content")
        try row("elicitationToRequest (JSON text in)") { _ = try elicitationToRequest(paramsJson: params, id: "elc-1") }
        try row("request.formFields()") { _ = try request.formFields() }
        try row("form.fields() (a prepared form)") { _ = form.fields() }
        try row("elicitationToRequest + request.form() + fields()") {
            _ = try elicitationToRequest(paramsJson: params, id: "elc-1").form().fields()
        }
        try row("elicitationToScreen (the same, one call)") { _ = try elicitationToScreen(paramsJson: params, id: "elc-1") }
        try row("answerToElicitResult + elicitResultToJson") { _ = try elicitResultToJson(result: answerToElicitResult(answer: answer)) }
        try row("answerToElicitResultJson (the same, one call)") { _ = try answerToElicitResultJson(answer: answer) }
    }
} catch {
    FileHandle.standardError.write("bench: \(error)\n".data(using: .utf8)!)
    exit(1)
}
