// Runners of the schema, content, form, secret, URL-review and terminal operations.
//
// A case's String input goes through the JSON-text functions; its bytes input is read by the
// core (`compactJsonBytes`) and then goes through the typed functions wherever the values fit
// them (content entries, form field records, the URL review record), so both the text and the
// typed API are held to the exact outputs.

import Foundation
import JSONText
import Toolnexus

/// The `schema` and `content` members of a case's input, as compact JSON text.
private func schemaAndContent(_ c: Case, _ input: Input) throws -> (schema: String, content: String) {
    let whole = try input.value(c.limits)
    guard let schema = whole["schema"], let content = whole["content"] else {
        throw BrokenCase("the input must be an object with `schema` and `content`")
    }
    return (schema.text, content.text)
}

/// Typed entries for content that typed content can express (an object of strings, numbers,
/// booleans and string lists), else `nil`.
func entries(_ content: String) -> [ContentEntry]? {
    try? contentFromJson(json: content)
}

private func allowUnknown(_ c: Case) -> Bool {
    c.args["allowUnknown"]?.boolValue ?? false
}

private func checkSchemaOp(_ c: Case, _ input: Input) throws -> String {
    let problems = try checkSchema(schemaJson: input.text(c.limits), limits: c.limits)
    return JSON.array(problems.map {
        .fields(("kind", .string($0.kind.asStr())), ("pointer", .string($0.pointer)))
    }).text
}

private func validateContentOp(_ c: Case, _ input: Input) throws -> String {
    let (schema, content) = try schemaAndContent(c, input)
    let found: [Violation]
    if input.isBytes, let typed = entries(content) {
        found = try validateContentEntries(schemaJson: schema, content: typed, allowUnknown: allowUnknown(c), limits: c.limits)
    } else {
        found = try validateContent(schemaJson: schema, contentJson: content, allowUnknown: allowUnknown(c), limits: c.limits)
    }
    return violationsValue(found).text
}

private func applyDefaultsOp(_ c: Case, _ input: Input) throws -> String {
    let (schema, content) = try schemaAndContent(c, input)
    if input.isBytes, let typed = entries(content) {
        return try contentToJson(content: applyDefaultsEntries(schemaJson: schema, content: typed, limits: c.limits))
    }
    return try applyDefaults(schemaJson: schema, contentJson: content, limits: c.limits)
}

private func prepareContentOp(_ c: Case, _ input: Input) throws -> String {
    let (schema, content) = try schemaAndContent(c, input)
    let prepared: String
    do {
        if input.isBytes, let typed = entries(content) {
            prepared = try contentToJson(content: prepareContentEntries(
                schemaJson: schema, content: typed, allowUnknown: allowUnknown(c), limits: c.limits))
        } else {
            prepared = try prepareContent(schemaJson: schema, contentJson: content, allowUnknown: allowUnknown(c), limits: c.limits)
        }
    } catch ToolnexusError.Failed(.invalidContent, _, _, let violations) {
        return JSON.fields(("content", .null), ("violations", violationsValue(violations))).text
    }
    return JSON.fields(("content", .raw(prepared)), ("violations", .array([]))).text
}

/// A form field as the suite writes it, from the record's own members.
func fieldValue(_ field: FormField) -> JSON {
    var members: [JSON.Member] = [JSON.Member("name", .string(field.name)), JSON.Member("label", .string(field.label))]
    if let description = field.description { members.append(JSON.Member("description", .string(description))) }
    members.append(JSON.Member("required", .bool(field.required)))
    members.append(JSON.Member("widget", .string(field.widget.asStr())))
    if !field.options.isEmpty {
        members.append(JSON.Member("options", .array(field.options.map {
            .fields(("value", .string($0.value)), ("label", .string($0.label)))
        })))
    }
    let limits = field.constraints
    let constraints: [JSON.Member] = [
        limits.minLength.map { JSON.Member("minLength", .integer($0)) },
        limits.maxLength.map { JSON.Member("maxLength", .integer($0)) },
        limits.minimum.map { JSON.Member("minimum", .number($0)) },
        limits.maximum.map { JSON.Member("maximum", .number($0)) },
        limits.minItems.map { JSON.Member("minItems", .integer($0)) },
        limits.maxItems.map { JSON.Member("maxItems", .integer($0)) },
    ].compactMap { $0 }
    if !constraints.isEmpty { members.append(JSON.Member("constraints", .object(constraints))) }
    if let value = field.defaultValue { members.append(JSON.Member("default", contentValue(value))) }
    members.append(JSON.Member("sensitive", .bool(field.sensitive)))
    return .object(members)
}

/// The fields through the free function for bytes, written from the records; through a `Form`
/// for a String, as the library writes them.
private func formFieldsOp(_ c: Case, _ input: Input) throws -> String {
    if input.isBytes {
        let fields = try formFields(schemaJson: input.text(c.limits), limits: c.limits)
        return JSON.array(fields.map(fieldValue)).text
    }
    return try Form(schemaJson: input.text(c.limits), limits: c.limits).fieldsJson()
}

private func parseFieldInputOp(_ c: Case, _ input: Input) throws -> String {
    guard let name = c.args["field"]?.stringValue, let typed = c.args["text"]?.stringValue else {
        throw BrokenCase("parse_field_input needs args.field and args.text")
    }
    let form = try Form(schemaJson: input.text(c.limits), limits: c.limits)
    guard let value = try form.parse(fieldName: name, text: typed) else { return "null" }
    return input.isBytes ? contentValue(value).text : try contentValueToJson(value: value)
}

private func sensitiveFieldsOp(_ c: Case, _ input: Input) throws -> String {
    let found = try sensitiveFields(schemaJson: input.text(c.limits), limits: c.limits)
    return JSON.array(found.map {
        .fields(("name", .string($0.name)), ("kind", .string($0.kind.asStr())))
    }).text
}

private func rejectSecretsOp(_ c: Case, _ input: Input) throws -> String {
    try rejectSecrets(schemaJson: input.text(c.limits), limits: c.limits)
    return "null"
}

/// A review as the suite writes it: the record's members, findings without their messages.
private func reviewValue(_ review: UrlReview) -> JSON {
    var members: [JSON.Member] = [JSON.Member("url", .string(review.url))]
    if let scheme = review.scheme { members.append(JSON.Member("scheme", .string(scheme))) }
    if let host = review.host { members.append(JSON.Member("host", .string(host))) }
    if let ascii = review.hostAscii { members.append(JSON.Member("hostAscii", .string(ascii))) }
    if let port = review.port { members.append(JSON.Member("port", .integer(UInt64(port)))) }
    members.append(JSON.Member("verdict", .string(review.verdict.asStr())))
    members.append(JSON.Member("findings", .array(review.findings.map {
        .fields(("code", .string($0.code.asStr())), ("severity", .string($0.severity.asStr())))
    })))
    return .object(members)
}

/// `urlReviewToJson`'s text with each finding's message left out.
private func withoutMessages(_ written: String) throws -> JSON {
    guard let members = try JSON.parse(written).members else { throw BrokenCase("a review that is not an object") }
    return .object(members.map { member in
        guard member.key == "findings", let findings = member.value.arrayValue else { return member }
        return JSON.Member("findings", .array(findings.map { finding in
            .object((finding.members ?? []).filter { $0.key != "message" })
        }))
    })
}

private func reviewUrlOp(_ c: Case, _ input: Input) throws -> String {
    guard let url = try input.value(c.limits).stringValue else {
        throw failure(.wrongType, "review_url takes the URL as a JSON string")
    }
    let review = reviewUrl(url: url)
    if input.isBytes { return try withoutMessages(urlReviewToJson(review: review)).text }
    return reviewValue(review).text
}

/// The string members `names` of a `terminal_*` input, in order: an absent or null one is the
/// suite's `missing_field`, one of another type `wrong_type`, each at its member.
private func terminalMembers(_ c: Case, _ input: Input, _ op: String, _ names: [String]) throws -> [String] {
    let whole = try input.value(c.limits)
    guard let members = whole.members else { throw failure(.wrongType, "\(op) takes a JSON object") }
    if let unknown = members.first(where: { !names.contains($0.key) }) {
        throw BrokenCase("\(op): unknown input member `\(unknown.key)`")
    }
    return try names.map { name in
        guard let value = whole[name], !value.isNull else {
            throw ToolnexusError.Failed(kind: .missingField, pointer: "/\(name)", detail: "`\(name)` is required", violations: [])
        }
        guard let text = value.stringValue else {
            throw ToolnexusError.Failed(kind: .wrongType, pointer: "/\(name)", detail: "`\(name)` must be a string", violations: [])
        }
        return text
    }
}

/// `terminal_text`: the line breaks by name through `lineBreaksFromName`, its error placed at the member.
private func terminalTextOp(_ c: Case, _ input: Input) throws -> String {
    let members = try terminalMembers(c, input, "terminal_text", ["text", "lineBreaks"])
    let breaks: LineBreaks
    do {
        breaks = try lineBreaksFromName(name: members[1])
    } catch ToolnexusError.Failed(let kind, _, let detail, let violations) {
        throw ToolnexusError.Failed(kind: kind, pointer: "/lineBreaks", detail: detail, violations: violations)
    }
    return JSON.string(terminalText(text: members[0], lineBreaks: breaks)).text
}

private func terminalJsonOp(_ c: Case, _ input: Input) throws -> String {
    let members = try terminalMembers(c, input, "terminal_json", ["json"])
    return JSON.string(terminalJson(json: members[0])).text
}

let contentRunners: [String: Runner] = [
    "check_schema": checkSchemaOp,
    "validate_content": validateContentOp,
    "apply_defaults": applyDefaultsOp,
    "prepare_content": prepareContentOp,
    "form_fields": formFieldsOp,
    "parse_field_input": parseFieldInputOp,
    "sensitive_fields": sensitiveFieldsOp,
    "reject_secrets": rejectSecretsOp,
    "review_url": reviewUrlOp,
    "terminal_text": terminalTextOp,
    "terminal_json": terminalJsonOp,
]
