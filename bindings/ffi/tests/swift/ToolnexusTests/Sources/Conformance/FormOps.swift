// The runner of the `form` operation: a `Form` made once from the case's schema, then each of
// its calls on it, each call's outcome `{"ok": value}` or `{"error": {"kind", "pointer"}}`.
//
// A case's String input goes through the methods that take JSON text; its bytes input through
// the typed ones (content entries, the field records) wherever the values fit them, so both are
// held to the exact outputs.

import Foundation
import JSONText
import Toolnexus

/// `{"content", "violations"}`: the prepared content, or every violation.
private func prepared(_ prepare: () throws -> String) throws -> JSON {
    do {
        return JSON.fields(("content", .raw(try prepare())), ("violations", .array([])))
    } catch ToolnexusError.Failed(.invalidContent, _, _, let violations) {
        return JSON.fields(("content", .null), ("violations", violationsValue(violations)))
    }
}

/// One call on `form`: its value.
private func call(_ form: Form, _ call: JSON, typed: Bool) throws -> JSON {
    guard let members = call.members, let what = members.first(where: { $0.key != "allowUnknown" }) else {
        throw BrokenCase("a form call is an object naming what it does")
    }
    let allowUnknown = call["allowUnknown"]?.boolValue ?? false
    let arg = what.value
    let content = arg.text
    let entries = typed && arg.members != nil ? entries(content) : nil
    switch what.key {
    case "fields":
        return typed ? .array(form.fields().map(fieldValue)) : .raw(form.fieldsJson())
    case "problems":
        return .array(form.problems().map { .fields(("kind", .string($0.kind.asStr())), ("pointer", .string($0.pointer))) })
    case "validate":
        if let entries { return violationsValue(try form.validateEntries(content: entries, allowUnknown: allowUnknown)) }
        return violationsValue(try form.validate(contentJson: content, allowUnknown: allowUnknown, limits: nil))
    case "prepare":
        if let entries {
            return try prepared { try contentToJson(content: form.prepareEntries(content: entries, allowUnknown: allowUnknown)) }
        }
        return try prepared { try form.prepare(contentJson: content, allowUnknown: allowUnknown, limits: nil) }
    case "applyDefaults":
        if let entries { return .raw(try contentToJson(content: form.applyDefaultsEntries(content: entries))) }
        return .raw(try form.applyDefaults(contentJson: content, limits: nil))
    case "defaults":
        return .raw(try contentToJson(content: form.defaults()))
    case "parse":
        guard let field = arg["field"]?.stringValue, let text = arg["text"]?.stringValue else {
            throw BrokenCase("parse takes {field, text}")
        }
        guard let value = try form.parse(fieldName: field, text: text) else { return .null }
        return typed ? contentValue(value) : .raw(try contentValueToJson(value: value))
    case "sensitiveFields":
        return .array(form.sensitiveFields().map { .fields(("name", .string($0.name)), ("kind", .string($0.kind.asStr()))) })
    case "rejectSecrets":
        try form.rejectSecrets()
        return .null
    default:
        throw BrokenCase("unknown form call \(what.key)")
    }
}

private func formOp(_ c: Case, _ input: Input) throws -> String {
    let whole = try input.value(c.limits)
    guard let schema = whole["schema"], let calls = whole["calls"]?.arrayValue else {
        throw BrokenCase("the input must be an object with `schema` and `calls`")
    }
    let form = try Form(schemaJson: schema.text, limits: c.limits)
    return JSON.array(try calls.map { one in try outcome { try call(form, one, typed: input.isBytes) } }).text
}

let formRunners: [String: Runner] = ["form": formOp]
