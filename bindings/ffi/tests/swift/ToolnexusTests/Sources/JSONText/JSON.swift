// JSON values for the tests: objects keep their member order and numbers their spelling, and
// the writer escapes strings the way the core does, so text read and written back is unchanged.
//
// Foundation's JSONSerialization reorders members and re-spells numbers, which the byte-exact
// suite cannot allow. Input is read strictly enough for text the core has already accepted; the
// tests pass untrusted text to the API, never to this reader.

/// A JSON value.
public enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number, spelt exactly as written.
    case number(String)
    case string(String)
    case array([JSON])
    /// An object's members, in order.
    case object([Member])
    /// JSON text written elsewhere (by the API under test), embedded as it is.
    case raw(String)

    /// One member of an object.
    public struct Member: Equatable, Sendable {
        public let key: String
        public let value: JSON

        public init(_ key: String, _ value: JSON) {
            self.key = key
            self.value = value
        }
    }

    /// An object from members in the order given.
    public static func fields(_ members: (String, JSON)...) -> JSON {
        .object(members.map { Member($0.0, $0.1) })
    }

    /// A string, or `null` when there is none.
    public static func string(orNull text: String?) -> JSON {
        text.map { .string($0) } ?? .null
    }

    /// JSON text from the API, or `null` when there is none.
    public static func raw(orNull text: String?) -> JSON {
        text.map { .raw($0) } ?? .null
    }

    /// An unsigned integer.
    public static func integer(_ value: UInt64) -> JSON {
        .number(String(value))
    }
}

// MARK: - Reading members

extension JSON {
    /// The member `key` of an object; `nil` for other values or when absent.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Whether this object has a member `key`, even a `null` one.
    public func has(_ key: String) -> Bool {
        self[key] != nil
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSON]? {
        if case .array(let items) = self { return items }
        return nil
    }

    public var members: [Member]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A number that is a non-negative integer written without fraction or exponent.
    public var uint64Value: UInt64? {
        if case .number(let spelling) = self { return UInt64(spelling) }
        return nil
    }

    public var isNull: Bool { self == .null }
}

// MARK: - Writing

extension JSON {
    /// Compact JSON text: no whitespace, strings escaped as the core escapes them.
    public var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let spelling): out += spelling
        case .string(let text): JSON.writeString(text, into: &out)
        case .raw(let text): out += text
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                JSON.writeString(member.key, into: &out)
                out += ":"
                member.value.write(into: &out)
            }
            out += "}"
        }
    }

    /// `text` as a JSON string: `"` and `\` escaped, the five short escapes, every other control
    /// character as `\u00xx` in lower-case hex, everything else (`/`, U+007F, non-ASCII) raw.
    public static func writeString(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

// MARK: - Reading text

/// Why text could not be read as JSON.
public struct JSONSyntaxError: Error, CustomStringConvertible {
    public let offset: Int
    public let problem: String
    public var description: String { "not JSON at byte \(offset): \(problem)" }
}

extension JSON {
    /// Reads one JSON value that fills `text`.
    public static func parse(_ text: String) throws -> JSON {
        var reader = Reader(bytes: Array(text.utf8))
        let value = try reader.value()
        reader.skipSpace()
        guard reader.at == reader.bytes.count else { throw reader.fail("trailing characters") }
        return value
    }
}

private struct Reader {
    let bytes: [UInt8]
    var at = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func fail(_ problem: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: at, problem: problem)
    }

    var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

    mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { at += 1 }
    }

    mutating func expect(_ byte: UInt8) throws {
        guard peek == byte else { throw fail("expected '\(Character(UnicodeScalar(byte)))'") }
        at += 1
    }

    mutating func value() throws -> JSON {
        skipSpace()
        guard let byte = peek else { throw fail("unexpected end") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: throw fail("unexpected character")
        }
    }

    mutating func object() throws -> JSON {
        at += 1
        var members: [JSON.Member] = []
        skipSpace()
        if peek == UInt8(ascii: "}") { at += 1; return .object(members) }
        while true {
            skipSpace()
            let key = try string()
            skipSpace()
            try expect(UInt8(ascii: ":"))
            members.append(JSON.Member(key, try value()))
            skipSpace()
            if peek == UInt8(ascii: ",") { at += 1; continue }
            try expect(UInt8(ascii: "}"))
            return .object(members)
        }
    }

    mutating func array() throws -> JSON {
        at += 1
        var items: [JSON] = []
        skipSpace()
        if peek == UInt8(ascii: "]") { at += 1; return .array(items) }
        while true {
            items.append(try value())
            skipSpace()
            if peek == UInt8(ascii: ",") { at += 1; continue }
            try expect(UInt8(ascii: "]"))
            return .array(items)
        }
    }

    mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        var out: [UInt8] = []
        while true {
            guard let byte = peek else { throw fail("unterminated string") }
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek else { throw fail("unterminated escape") }
                at += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out.append(contentsOf: try unicodeEscape())
                default: throw fail("unknown escape")
                }
            default:
                out.append(byte)
            }
        }
    }

    /// The UTF-8 of a `\uXXXX` escape (the `\u` read), joining a surrogate pair.
    mutating func unicodeEscape() throws -> [UInt8] {
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
            guard peek == UInt8(ascii: "\\") else { throw fail("lone surrogate") }
            at += 1
            try expect(UInt8(ascii: "u"))
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("lone surrogate") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw fail("lone surrogate") }
        return Array(String(Character(scalar)).utf8)
    }

    mutating func hex4() throws -> UInt32 {
        guard at + 4 <= bytes.count,
              let code = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16)
        else { throw fail("bad \\u escape") }
        at += 4
        return code
    }

    mutating func number() -> JSON {
        let start = at
        while let byte = peek, "+-0123456789.eE".utf8.contains(byte) { at += 1 }
        return .number(String(decoding: bytes[start..<at], as: UTF8.self))
    }

    mutating func literal(_ word: String, _ value: JSON) throws -> JSON {
        let spelled = Array(word.utf8)
        guard at + spelled.count <= bytes.count, Array(bytes[at..<at + spelled.count]) == spelled else {
            throw fail("unexpected characters")
        }
        at += spelled.count
        return value
    }
}
