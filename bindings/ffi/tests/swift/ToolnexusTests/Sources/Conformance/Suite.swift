// The suite's cases as the runner reads them, and the shapes every operation's runner shares.

import Foundation
import JSONText
import Toolnexus

/// One case of `conformance/v1/<area>/<file>.json`.
struct Case {
    let id: UInt64
    let description: String
    let op: String
    let file: String
    let source: JSON
    let args: JSON
    let limits: Limits?
    let expect: Expectation

    enum Expectation {
        case output(String)
        case error(kind: String, pointer: String)
    }

    init(_ value: JSON, file: String) throws {
        guard let id = value["id"]?.uint64Value, let description = value["description"]?.stringValue,
              let op = value["op"]?.stringValue
        else { throw BrokenCase("a case in \(file) lacks id, description or op") }
        self.id = id
        self.description = description
        self.op = op
        self.file = file
        source = value
        args = value["args"] ?? .object([])
        limits = try Case.limits(value["limits"])
        if let output = value["expect"]?["output"]?.stringValue {
            expect = .output(output)
        } else if let error = value["expect"]?["error"], let kind = error["kind"]?.stringValue,
                  let pointer = error["pointer"]?.stringValue {
            expect = .error(kind: kind, pointer: pointer)
        } else {
            throw BrokenCase("case #\(id) expects neither an output nor an error")
        }
    }

    /// The case's input: as a String and again as UTF-8 bytes, or only as bytes when they are
    /// not UTF-8. `input` is a JSON value, given as its compact text (members in order, numbers
    /// as spelt, serde_json's escapes); `inputText` is given as it is.
    func inputs() throws -> [Input] {
        if let encoded = source["inputBase64"]?.stringValue {
            guard let raw = Data(base64Encoded: encoded) else { throw BrokenCase("inputBase64 is not base64") }
            if let text = String(data: raw, encoding: .utf8) { return [.text(text), .bytes(raw)] }
            return [.bytes(raw)]
        }
        let text: String
        if let parts = source["inputParts"]?.arrayValue {
            text = try parts.map { part in
                guard let piece = part["text"]?.stringValue else { throw BrokenCase("an input part has no text") }
                let times = part["times"]?.uint64Value ?? 1
                // `numbered`: `{n}` in each repetition is its index, for distinct keys.
                if part["numbered"]?.boolValue == true {
                    return (0..<Int(times)).map { piece.replacingOccurrences(of: "{n}", with: String($0)) }.joined()
                }
                return String(repeating: piece, count: Int(times))
            }.joined()
        } else if let given = source["inputText"] {
            // `inputText` is given as it is; `input`, a JSON value, as its compact text.
            guard let given = given.stringValue else { throw BrokenCase("inputText is not a string") }
            text = given
        } else if let value = source["input"] {
            text = value.text
        } else {
            text = ""
        }
        return [.text(text), .bytes(Data(text.utf8))]
    }

    private static func limits(_ given: JSON?) throws -> Limits? {
        guard let given else { return nil }
        var limits = Limits()
        for member in given.members ?? [] {
            guard let bound = member.value.uint64Value else { throw BrokenCase("limit \(member.key) is not a count") }
            switch member.key {
            case "maxInputBytes": limits.maxInputBytes = bound
            case "maxDepth": limits.maxDepth = bound
            case "maxObjectMembers": limits.maxObjectMembers = bound
            case "maxArrayItems": limits.maxArrayItems = bound
            default: throw BrokenCase("unknown limit \(member.key)")
            }
        }
        return limits
    }
}

/// A case's input as one of the two ways the API takes JSON.
enum Input {
    case text(String)
    case bytes(Data)

    var shown: String {
        if case .text = self { return "String" }
        return "bytes"
    }

    var isBytes: Bool {
        if case .bytes = self { return true }
        return false
    }

    /// The input read by the core within `limits` and written back compact; its faults are the
    /// core's errors.
    func compact(_ limits: Limits?) throws -> String {
        switch self {
        case .text(let text): return try compactJson(json: text, limits: limits)
        case .bytes(let bytes): return try compactJsonBytes(json: bytes, limits: limits)
        }
    }

    /// The input as text for functions that take only text: a String as it is, bytes read by the
    /// core first (so bytes that are not UTF-8 fail as the core says).
    func text(_ limits: Limits?) throws -> String {
        switch self {
        case .text(let text): return text
        case .bytes(let bytes): return try compactJsonBytes(json: bytes, limits: limits)
        }
    }

    /// The input, read by the core, as a JSON value.
    func value(_ limits: Limits?) throws -> JSON {
        try JSON.parse(compact(limits))
    }
}

/// How an operation runs through the Swift API: the case and one of its inputs in, the exact
/// output text out; API failures are thrown as `ToolnexusError`.
typealias Runner = (Case, Input) throws -> String

/// A case the runner cannot run as written: a fault of the case, not of the API.
struct BrokenCase: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The error a runner raises itself where the suite pins one that the API has no call for (a
/// review of a URL given as other JSON than a string).
func failure(_ kind: ErrorKind, _ detail: String) -> ToolnexusError {
    .Failed(kind: kind, pointer: "", detail: detail, violations: [])
}

/// `{"pointer", "keyword"}` for each violation: messages are wording, not contract.
func violationsValue(_ violations: [Violation]) -> JSON {
    .array(violations.map { .fields(("pointer", .string($0.pointer)), ("keyword", .string($0.keyword))) })
}

/// A content value as content holds it.
func contentValue(_ value: ContentValue) -> JSON {
    switch value {
    case .text(let text): return .string(text)
    case .number(let spelling): return .number(spelling)
    case .boolean(let flag): return .bool(flag)
    case .textList(let values): return .array(values.map { .string($0) })
    }
}
