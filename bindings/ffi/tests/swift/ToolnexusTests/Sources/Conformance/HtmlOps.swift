// The runner of the `html` operation, as a WebView host calls the API: the page
// (`requestHtml`), the browser's post read back (`answerFromPost`) and, when that throws, the
// page written again with the error itself.
//
// The input is read within the default limits; the case's limits bound the post. A post the
// core refuses (not urlencoded, over the limits) fails the re-render too, with the same error,
// which is then the case's error, as it is for the Rust runner. A case's String input reads the
// request from text and leaves absent options to the function's default; its bytes input reads
// the request from bytes and passes `HtmlOptions()`, so the record's declared defaults are held
// to the same bytes.

import Foundation
import JSONText
import Toolnexus

/// `[[name, value], ...]` as pairs.
private func pairs(_ value: JSON, _ what: String) throws -> [FormPair] {
    guard let items = value.arrayValue else { throw BrokenCase("`\(what)` is an array of [name, value] pairs") }
    return try items.map { pair in
        guard let both = pair.arrayValue, both.count == 2, let name = both[0].stringValue, let text = both[1].stringValue else {
            throw BrokenCase("`\(what)` holds a pair that is not two strings")
        }
        return FormPair(name: name, value: text)
    }
}

/// The case's options as the record.
private func htmlOptions(_ value: JSON) throws -> HtmlOptions {
    guard let members = value.members else { throw BrokenCase("`options` is an object") }
    var options = HtmlOptions()
    for member in members {
        let text = member.value.stringValue, flag = member.value.boolValue
        switch (member.key, text, flag) {
        case ("asker", let text?, _): options.asker = text
        case ("classPrefix", let text?, _): options.classPrefix = text
        case ("hidden", _, _): options.hidden = try pairs(member.value, "hidden")
        case ("action", let text?, _): options.action = text
        case ("utcOffset", let text?, _): options.utcOffset = text
        case ("applyDefaults", _, let flag?): options.applyDefaults = flag
        case ("allowUnknown", _, let flag?): options.allowUnknown = flag
        default: throw BrokenCase("option `\(member.key)` is unknown or of the wrong type")
        }
    }
    return options
}

/// The post as a WebView gives it: the body's bytes for a string, else the decoded pairs.
private func formPost(_ value: JSON) throws -> FormPost {
    if let body = value.stringValue { return .body(bytes: Data(body.utf8)) }
    return .pairs(pairs: try pairs(value, "post"))
}

private func htmlOp(_ c: Case, _ input: Input) throws -> String {
    let whole = try input.value(nil)
    guard let members = whole.members, let requestValue = whole["request"] else {
        throw BrokenCase("the input must be an object with `request`")
    }
    if let stranger = members.first(where: { !["request", "options", "post"].contains($0.key) }) {
        throw BrokenCase("unknown input member `\(stranger.key)`")
    }
    let request = input.isBytes
        ? try requestFromJsonBytes(json: Data(requestValue.text.utf8))
        : try requestFromJson(json: requestValue.text)
    let options = try whole["options"].map(htmlOptions) ?? (input.isBytes ? HtmlOptions() : nil)
    guard let postValue = whole["post"] else {
        return JSON.fields(("html", .string(try requestHtml(request: request, options: options)))).text
    }
    let post = try formPost(postValue)
    let answer: Answer
    do {
        answer = try answerFromPost(request: request, post: post, options: options, limits: c.limits)
    } catch let error as ToolnexusError {
        let html = try requestHtml(request: request, options: options, post: post, error: error, limits: c.limits)
        let described = JSON.fields(
            ("kind", .string(error.kind.asStr())),
            ("pointer", .string(error.pointer)),
            ("violations", violationsValue(error.violations))
        )
        return JSON.fields(("error", described), ("html", .string(html))).text
    }
    return JSON.fields(("answer", .raw(try answerToJson(answer: answer)))).text
}

let htmlRunners: [String: Runner] = ["html": htmlOp]
