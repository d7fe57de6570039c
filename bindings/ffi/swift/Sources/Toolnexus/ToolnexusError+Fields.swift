// Swift conveniences over the generated `ToolnexusError`: its fields without a pattern match,
// and a description in the core's words (`invalid_json at /data: …`).

extension ToolnexusError: CustomStringConvertible {
    /// What went wrong.
    public var kind: ErrorKind {
        switch self {
        case .Failed(let kind, _, _, _): return kind
        }
    }

    /// Where: an RFC 6901 JSON pointer into the input, `""` for the whole input.
    public var pointer: String {
        switch self {
        case .Failed(_, let pointer, _, _): return pointer
        }
    }

    /// What went wrong, in words a person can read.
    public var detail: String {
        switch self {
        case .Failed(_, _, let detail, _): return detail
        }
    }

    /// For `.invalidContent`, every way the content breaks its schema; empty otherwise.
    public var violations: [Violation] {
        switch self {
        case .Failed(_, _, _, let violations): return violations
        }
    }

    /// The kind as the core names it, where, and what: `invalid_value at /age: …`.
    public var description: String {
        let name = kind.asStr()
        return pointer.isEmpty ? "\(name): \(detail)" : "\(name) at \(pointer): \(detail)"
    }
}
