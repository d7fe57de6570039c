// Runners of the contract operations: the two mappings, each record's JSON, request ids.
//
// Text input goes to the `…(json: String)` functions, bytes to the `…Bytes(json: Data)` ones.

import Foundation
import JSONText
import Toolnexus

private func request(_ input: Input, _ limits: Limits?) throws -> Request {
    switch input {
    case .text(let text): return try requestFromJson(json: text, limits: limits)
    case .bytes(let bytes): return try requestFromJsonBytes(json: bytes, limits: limits)
    }
}

private func answer(_ input: Input, _ limits: Limits?) throws -> Answer {
    switch input {
    case .text(let text): return try answerFromJson(json: text, limits: limits)
    case .bytes(let bytes): return try answerFromJsonBytes(json: bytes, limits: limits)
    }
}

private func elicitResult(_ input: Input, _ limits: Limits?) throws -> ElicitResult {
    switch input {
    case .text(let text): return try elicitResultFromJson(json: text, limits: limits)
    case .bytes(let bytes): return try elicitResultFromJsonBytes(json: bytes, limits: limits)
    }
}

private func elicitationRequest(_ c: Case, _ input: Input) throws -> Request {
    let id = c.args["id"]?.stringValue
    switch input {
    case .text(let text): return try elicitationToRequest(paramsJson: text, id: id, limits: c.limits)
    case .bytes(let bytes): return try elicitationToRequestBytes(paramsJson: bytes, id: id, limits: c.limits)
    }
}

private func formatIdOf(_ c: Case) throws -> String {
    guard let unixMs = c.args["unixMs"]?.uint64Value, let sequence = c.args["sequence"]?.uint64Value else {
        throw BrokenCase("format_id needs args.unixMs and args.sequence")
    }
    return JSON.string(formatId(unixMs: unixMs, sequence: sequence)).text
}

let contractRunners: [String: Runner] = [
    "elicitation_to_request": { c, input in try requestToJson(request: elicitationRequest(c, input)) },
    "answer_to_elicit_result": { c, input in
        try elicitResultToJson(result: answerToElicitResult(answer: answer(input, c.limits)))
    },
    "request": { c, input in try requestToJson(request: request(input, c.limits)) },
    "answer": { c, input in try answerToJson(answer: answer(input, c.limits)) },
    "elicit_result": { c, input in try elicitResultToJson(result: elicitResult(input, c.limits)) },
    "format_id": { c, _ in try formatIdOf(c) },
]
