import SleepTimerCore

/// The params of a call, read with errors that name the parameter.
struct Parameters {
    let value: JSONValue?
    let path: String

    init(_ value: JSONValue?, path: String = "") {
        self.value = value
        self.path = path
    }

    private func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func member(_ key: String) throws(RPCError) -> JSONValue {
        guard case .object = value else { throw .invalidParams(path.isEmpty ? "params" : path, "must be an object") }
        guard let member = value?[key] else { throw .invalidParams(name(key), "\(name(key)) is required") }
        return member
    }

    func string(_ key: String) throws(RPCError) -> String {
        guard case .string(let text) = try member(key) else { throw .invalidParams(name(key), "\(name(key)) must be a string") }
        return text
    }

    func object(_ key: String) throws(RPCError) -> Parameters {
        let value = try member(key)
        guard case .object = value else { throw .invalidParams(name(key), "\(name(key)) must be an object") }
        return Parameters(value, path: name(key))
    }

    func array(_ key: String, maximum: Int) throws(RPCError) -> [JSONValue] {
        guard case .array(let elements) = try member(key) else { throw .invalidParams(name(key), "\(name(key)) must be an array") }
        guard elements.count <= maximum else { throw .invalidParams(name(key), "\(name(key)) may hold at most \(maximum) entries") }
        return elements
    }

    func identifier<Kind>(_ type: Identifier<Kind>.Type, _ key: String) throws(RPCError) -> Identifier<Kind> {
        guard let id = Identifier<Kind>(try string(key)) else { throw .invalidParams(name(key), "\(name(key)) must be a UUID") }
        return id
    }

    /// An optional member, checked by `check` when present.
    func optional(_ key: String, default fallback: JSONValue, check: (JSONValue) throws(RPCError) -> Void) throws(RPCError) -> JSONValue {
        guard case .object = value, let member = value?[key] else { return fallback }
        try check(member)
        return member
    }
}
