// The shared conformance suite (conformance/v1/) run through the Swift API.
//
// Each case's input goes in as a String and again as UTF-8 bytes (bytes that are not UTF-8 only
// as bytes); the output must be the exact text the case gives, errors must have its kind and
// pointer. Every operation of the suite has a runner: an operation without one, or a runner for an
// operation the suite does not hold, fails the run, so nothing is skipped unnoticed.
//
// Usage: conformance <conformance/v1 folder>

import Foundation
import JSONText
import Toolnexus

/// Every operation's runner, by the suite's name.
let runners: [String: Runner] = contractRunners
    .merging(contentRunners) { _, _ in fatalError("an operation has two runners") }
    .merging(scriptRunners) { _, _ in fatalError("an operation has two runners") }
    .merging(formRunners) { _, _ in fatalError("an operation has two runners") }
    .merging(htmlRunners) { _, _ in fatalError("an operation has two runners") }
    .merging(authRunners) { _, _ in fatalError("an operation has two runners") }

/// Cases this runner is known to fail, by id, with the reason. Kept here, never in the cases.
let expectedFailures: [UInt64: String] = [:]

/// A thrown error's kind and pointer as the suite names them, with its text; nil for any other.
func named(_ error: Error) -> (kind: String, pointer: String, detail: String)? {
    switch error {
    case ToolnexusError.Failed(let kind, let pointer, let detail, _): return (kind.asStr(), pointer, detail)
    case AuthError.Failed(let kind, let pointer, let detail): return (kind.asStr(), pointer, detail)
    case AuthError.Invalid(let kind, let pointer, let detail): return (kind.asStr(), pointer, detail)
    default: return nil
    }
}

/// Why the case fails, or nil when it passes.
func check(_ c: Case) throws -> String? {
    guard let run = runners[c.op] else { return "no runner for \(c.op)" }
    for input in try c.inputs() {
        let output: String
        do {
            output = try run(c, input)
        } catch {
            guard let found = named(error) else { throw error }
            let (name, pointer, detail) = found
            switch c.expect {
            case .output(let want):
                return "(\(input.shown)) expected output \(want)\n    got \(name) at '\(pointer)': \(detail)"
            case .error(let wantKind, let wantPointer) where wantKind != name || wantPointer != pointer:
                return "(\(input.shown)) expected error \(wantKind) at '\(wantPointer)'\n    got \(name) at '\(pointer)': \(detail)"
            case .error:
                continue
            }
        }
        switch c.expect {
        case .error(let kind, let pointer):
            return "(\(input.shown)) expected error \(kind) at '\(pointer)'\n    got output \(output.prefix(200))"
        case .output(let want) where output != want:
            return "(\(input.shown)) output differs\n    want: \(want)\n    got:  \(output)"
        case .output:
            continue
        }
    }
    return nil
}

/// Areas of the suite this runner does not run yet, with the reason, each announced on every run:
/// the whole area is left out, never a case here and there.
let areasNotRun: [String: String] = [:]

/// Every case of every `<area>/*.json` file, sorted by path, but the areas not run.
func loadSuite(_ suite: URL) throws -> [Case] {
    let fm = FileManager.default
    var files: [String] = []
    for area in try fm.contentsOfDirectory(atPath: suite.path).sorted() {
        var isDir: ObjCBool = false
        let folder = suite.appendingPathComponent(area).path
        guard fm.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else { continue }
        if let why = areasNotRun[area] {
            print("conformance (swift): area \(area) not run: \(why)")
            continue
        }
        for name in try fm.contentsOfDirectory(atPath: folder) where name.hasSuffix(".json") {
            files.append("\(area)/\(name)")
        }
    }
    guard !files.isEmpty else { throw BrokenCase("no case files under \(suite.path)") }
    return try files.sorted().flatMap { path -> [Case] in
        let data = try Data(contentsOf: suite.appendingPathComponent(path))
        let file = try JSON.parse(String(decoding: data, as: UTF8.self))
        guard let cases = file["cases"]?.arrayValue else { throw BrokenCase("\(path) has no cases") }
        return try cases.map { try Case($0, file: path) }
    }
}

guard CommandLine.arguments.count == 2 else {
    print("usage: conformance <conformance/v1 folder>")
    exit(2)
}
let loaded: [Case]
do {
    loaded = try loadSuite(URL(fileURLWithPath: CommandLine.arguments[1]))
} catch {
    print("ERROR cannot read the suite: \(error)")
    exit(1)
}

let inSuite = Set(loaded.map(\.op)), covered = Set(runners.keys)
var problems: [String] = []
if !inSuite.subtracting(covered).isEmpty {
    problems.append("ops in the suite without a Swift runner: \(inSuite.subtracting(covered).sorted())")
}
if !covered.subtracting(inSuite).isEmpty {
    problems.append("runners for ops the suite does not hold: \(covered.subtracting(inSuite).sorted())")
}

let gone = Set(expectedFailures.keys).subtracting(loaded.map(\.id))
if !gone.isEmpty { problems.append("expected failures that are no case of the suite: \(gone.sorted())") }

var passed = 0
var known = 0
var failures: [String] = []
for c in loaded {
    let why: String?
    do { why = try check(c) } catch { why = "threw \(error)" }
    let expectedToFail = expectedFailures[c.id] != nil
    switch (why, expectedToFail) {
    case (nil, false): passed += 1
    case (.some, true): known += 1
    case (nil, true): failures.append("#\(c.id) \(c.description) (\(c.file)): listed in expectedFailures but passes")
    case (.some(let why), false): failures.append("#\(c.id) \(c.description) (\(c.file))\n    \(why)")
    }
}
for failure in failures { print("FAIL \(failure)") }
for problem in problems { print("ERROR \(problem)") }
if known > 0 { print("conformance (swift): \(known) known failures listed in expectedFailures") }
print("conformance (swift): \(passed) passed, \(failures.count) failed")
if passed == 0 || !failures.isEmpty || !problems.isEmpty { exit(1) }
