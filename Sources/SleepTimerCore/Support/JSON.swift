/// A JSON value (RFC 8259) that keeps numbers as the text they were
/// written in, so that a JSON-RPC id such as `1.50` or `12345678901234567890`
/// goes back exactly as it came.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The number's text, already checked against the JSON grammar.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in their order; a repeated name keeps its last value when
    /// read through `subscript`.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectMembers: [(String, JSONValue)]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The number as an integer, when it is one (no fraction or exponent)
    /// and fits.
    public var int64Value: Int64? {
        guard case .number(let text) = self else { return nil }
        return Int64(text)
    }

    /// Compact JSON text. Non-ASCII is kept as UTF-8, except U+2028 and
    /// U+2029, which are escaped since JavaScript source cannot hold them
    /// in strings before ES2019.
    public var serialized: String {
        var output = ""
        serialize(into: &output)
        return output
    }

    private func serialize(into output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let text): output += text
        case .string(let text): output += JSONValue.quote(text)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.serialize(into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (name, value)) in members.enumerated() {
                if index > 0 { output += "," }
                output += JSONValue.quote(name)
                output += ":"
                value.serialize(into: &output)
            }
            output += "}"
        }
    }

    /// A JSON string literal of `text`.
    public static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{8}": result += "\\b"
            case "\u{C}": result += "\\f"
            case "\u{2028}": result += "\\u2028"
            case "\u{2029}": result += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

/// A strict RFC 8259 parser with bounds: nesting depth and total size are
/// limited by the caller, so hostile input cannot exhaust the stack or the
/// memory.
public struct JSONParser {
    public enum Failure: Error, Equatable, Sendable {
        /// Not JSON at all.
        case syntax(offset: Int)
        /// JSON, but nested deeper than allowed.
        case tooDeep
    }

    private let bytes: [UInt8]
    private var index = 0
    private let maximumDepth: Int

    /// The nesting Foundation's JSONDecoder accepted, for the places that
    /// read with it before, so that nothing it read is refused now.
    public static let decoderDepth = 512

    public static func parse(_ bytes: [UInt8], maximumDepth: Int = 64) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw .syntax(offset: parser.index) }
        return value
    }

    private init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private var failure: Failure { .syntax(offset: index) }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(Failure) -> JSONValue {
        let utf8 = Array(word.utf8)
        guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else { throw failure }
        index += utf8.count
        return value
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw failure }
        switch bytes[index] {
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "["):
            guard depth < maximumDepth else { throw .tooDeep }
            index += 1
            skipWhitespace()
            var elements: [JSONValue] = []
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw failure }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                guard bytes[index] == UInt8(ascii: "]") else { throw failure }
                index += 1
                return .array(elements)
            }
        case UInt8(ascii: "{"):
            guard depth < maximumDepth else { throw .tooDeep }
            index += 1
            skipWhitespace()
            var members: [(String, JSONValue)] = []
            if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure }
                let name = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure }
                index += 1
                skipWhitespace()
                members.append((name, try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw failure }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                guard bytes[index] == UInt8(ascii: "}") else { throw failure }
                index += 1
                return .object(members)
            }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        default:
            throw failure
        }
    }

    private mutating func number() throws(Failure) -> String {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw failure }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw failure }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw failure }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// A string; input must be valid UTF-8, escapes must pair surrogates.
    private mutating func string() throws(Failure) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun() throws(Failure) {
            guard runStart < index else { return }
            guard let text = String(validating: bytes[runStart..<index], as: UTF8.self) else { throw .syntax(offset: runStart) }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw failure }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flushRun()
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw failure }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            try flushRun()
            index += 1
            guard index < bytes.count else { throw failure }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                let unit = try hex4()
                if (0xD800...0xDBFF).contains(unit) {
                    guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { throw failure }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw failure }
                    scalars.append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                } else {
                    guard let scalar = Unicode.Scalar(unit) else { throw failure }
                    scalars.append(scalar)
                }
            default:
                throw failure
            }
            runStart = index
        }
    }
}
