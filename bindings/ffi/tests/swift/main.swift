// The shared conformance suite (conformance/v1/) run through the Swift API.
//
// Each case's input goes in as a String and again as UTF-8 bytes (bytes that are not UTF-8
// only as bytes); the output must be the exact text the case gives, errors must have its kind
// and path. Operations the Swift API does not offer yet are listed in notCovered and counted;
// the suite must hold exactly those, so none is skipped unnoticed.

import Foundation

struct Part: Decodable { let text: String; let times: Int? }
struct Want: Decodable { let kind: String; let pointer: String }
struct Expect: Decodable { let output: String?; let error: Want? }
struct CaseLimits: Decodable {
    let maxInputBytes: UInt64?, maxDepth: UInt64?, maxObjectMembers: UInt64?, maxArrayItems: UInt64?
}
struct Args: Decodable { let id: String?; let unixMs: UInt64?; let sequence: UInt64? }

struct Case: Decodable {
    let id: UInt64
    let description: String
    let op: String
    let input: String?
    let inputBase64: String?
    let inputParts: [Part]?
    let limits: CaseLimits?
    let args: Args?
    let expect: Expect

    enum Keys: String, CodingKey {
        case id, description, op, input, inputBase64, inputParts, limits, args, expect
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        id = try c.decode(UInt64.self, forKey: .id)
        description = try c.decode(String.self, forKey: .description)
        op = try c.decode(String.self, forKey: .op)
        input = try c.decodeIfPresent(String.self, forKey: .input)
        inputBase64 = try c.decodeIfPresent(String.self, forKey: .inputBase64)
        inputParts = try c.decodeIfPresent([Part].self, forKey: .inputParts)
        limits = try c.decodeIfPresent(CaseLimits.self, forKey: .limits)
        // Other operations give other arguments; only these ones' are read.
        args = try? c.decodeIfPresent(Args.self, forKey: .args)
        expect = try c.decode(Expect.self, forKey: .expect)
    }
}

struct CaseFile: Decodable { let cases: [Case] }

enum Input {
    case text(String)
    case bytes(Data)

    var shown: String { if case .text = self { return "String" } else { return "bytes" } }
}

func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

func answerOf(_ input: Input, _ limits: Limits?) throws -> Answer {
    switch input {
    case .text(let text): return try answerFromJson(json: text, limits: limits)
    case .bytes(let bytes): return try answerFromJsonBytes(json: bytes, limits: limits)
    }
}

/// How each operation runs through the Swift API: JSON text in, JSON text out.
let runners: [String: (Case, Input, Limits?) throws -> String] = [
    "elicitation_to_request": { c, input, limits in
        switch input {
        case .text(let text):
            return try requestToJson(request: elicitationToRequest(paramsJson: text, id: c.args?.id, limits: limits))
        case .bytes(let bytes):
            return try requestToJson(request: elicitationToRequestBytes(paramsJson: bytes, id: c.args?.id, limits: limits))
        }
    },
    "answer_to_elicit_result": { _, input, limits in
        try elicitResultToJson(result: answerToElicitResult(answer: answerOf(input, limits)))
    },
    "request": { _, input, limits in
        switch input {
        case .text(let text): return try requestToJson(request: requestFromJson(json: text, limits: limits))
        case .bytes(let bytes): return try requestToJson(request: requestFromJsonBytes(json: bytes, limits: limits))
        }
    },
    "answer": { _, input, limits in try answerToJson(answer: answerOf(input, limits)) },
    "elicit_result": { _, input, limits in
        switch input {
        case .text(let text): return try elicitResultToJson(result: elicitResultFromJson(json: text, limits: limits))
        case .bytes(let bytes): return try elicitResultToJson(result: elicitResultFromJsonBytes(json: bytes, limits: limits))
        }
    },
    "format_id": { c, _, _ in
        guard let unixMs = c.args?.unixMs, let sequence = c.args?.sequence else {
            throw RunnerError.badCase("format_id needs args.unixMs and args.sequence")
        }
        return quote(formatId(unixMs: unixMs, sequence: sequence))
    },
]

/// Operations of the suite the Swift API does not offer yet, with why.
let notCovered: [String: String] = [
    "apply_defaults": "content defaults are not exported yet",
    "check_schema": "schema checks are not exported yet",
    "form_fields": "the form model is not exported yet",
    "mrtr": "the multi round-trip helpers are not exported yet",
    "parse_field_input": "the form model is not exported yet",
    "prepare_content": "content checks are not exported yet",
    "reject_secrets": "secret-field checks are not exported yet",
    "reverse_request": "the JSON-RPC wire is not exported yet",
    "review_url": "URL review is not exported yet",
    "sensitive_fields": "secret-field checks are not exported yet",
    "session": "the session is not exported yet",
    "validate_content": "content checks are not exported yet",
]

enum RunnerError: Error { case badCase(String) }

func inputs(_ c: Case) throws -> [Input] {
    if let encoded = c.inputBase64 {
        guard let raw = Data(base64Encoded: encoded) else { throw RunnerError.badCase("bad inputBase64") }
        if let text = String(data: raw, encoding: .utf8) { return [.text(text), .bytes(raw)] }
        return [.bytes(raw)]
    }
    let text = c.inputParts.map { parts in
        parts.map { String(repeating: $0.text, count: $0.times ?? 1) }.joined()
    } ?? c.input ?? ""
    return [.text(text), .bytes(Data(text.utf8))]
}

func limitsOf(_ c: Case) -> Limits? {
    guard let given = c.limits else { return nil }
    var limits = Limits()
    if let n = given.maxInputBytes { limits.maxInputBytes = n }
    if let n = given.maxDepth { limits.maxDepth = n }
    if let n = given.maxObjectMembers { limits.maxObjectMembers = n }
    if let n = given.maxArrayItems { limits.maxArrayItems = n }
    return limits
}

/// Why the case fails, or nil when it passes.
func check(_ c: Case) throws -> String? {
    guard let run = runners[c.op] else { return "no runner for \(c.op)" }
    let limits = limitsOf(c)
    for input in try inputs(c) {
        let output: String
        do {
            output = try run(c, input, limits)
        } catch ToolnexusError.Failed(let kind, let path, let detail, _) {
            let name = errorKindName(kind: kind)
            guard let want = c.expect.error else {
                return "(\(input.shown)) expected output \(c.expect.output ?? "")\n    got \(name) at '\(path)': \(detail)"
            }
            if name != want.kind || path != want.pointer {
                return "(\(input.shown)) expected error \(want.kind) at '\(want.pointer)'\n    got \(name) at '\(path)': \(detail)"
            }
            continue
        }
        if let want = c.expect.error {
            return "(\(input.shown)) expected error \(want.kind) at '\(want.pointer)'\n    got output \(output.prefix(200))"
        }
        if output != c.expect.output {
            return "(\(input.shown)) output differs\n    want: \(c.expect.output ?? "")\n    got:  \(output)"
        }
    }
    return nil
}

func loadSuite(_ suite: URL) throws -> [(String, Case)] {
    let fm = FileManager.default
    var files: [String] = []
    for area in try fm.contentsOfDirectory(atPath: suite.path) {
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: suite.appendingPathComponent(area).path, isDirectory: &isDir), isDir.boolValue else { continue }
        for name in try fm.contentsOfDirectory(atPath: suite.appendingPathComponent(area).path) where name.hasSuffix(".json") {
            files.append("\(area)/\(name)")
        }
    }
    guard !files.isEmpty else { throw RunnerError.badCase("no case files under \(suite.path)") }
    return try files.sorted().flatMap { path in
        let data = try Data(contentsOf: suite.appendingPathComponent(path))
        return try JSONDecoder().decode(CaseFile.self, from: data).cases.map { (path, $0) }
    }
}

guard CommandLine.arguments.count == 2 else {
    print("usage: conformance <conformance/v1 folder>")
    exit(2)
}
let loaded = try loadSuite(URL(fileURLWithPath: CommandLine.arguments[1]))
let inSuite = Set(loaded.map { $0.1.op })
let run = Set(runners.keys), listed = Set(notCovered.keys)
var problems: [String] = []
let unlisted = inSuite.subtracting(run).subtracting(listed)
let stale = run.union(listed).subtracting(inSuite)
if !unlisted.isEmpty { problems.append("ops in the suite the Swift runner neither runs nor lists: \(unlisted.sorted())") }
if !stale.isEmpty { problems.append("ops run or listed but not in the suite: \(stale.sorted())") }
if !run.isDisjoint(with: listed) { problems.append("ops both run and listed as not covered: \(run.intersection(listed).sorted())") }

var passed = 0, notCoveredCount = 0
var failures: [String] = []
for (path, c) in loaded {
    if listed.contains(c.op) { notCoveredCount += 1; continue }
    let why: String?
    do { why = try check(c) } catch { why = "threw \(error)" }
    if let why { failures.append("#\(c.id) \(c.description) (\(path))\n    \(why)") } else { passed += 1 }
}
for failure in failures { print("FAIL \(failure)") }
for problem in problems { print("ERROR \(problem)") }
let uncovered = listed.isEmpty ? "" : " (ops: \(listed.sorted().joined(separator: ", ")))"
print("conformance (swift): \(passed) passed, \(failures.count) failed, \(notCoveredCount) not covered\(uncovered)")
if passed == 0 || !failures.isEmpty || !problems.isEmpty { exit(1) }
