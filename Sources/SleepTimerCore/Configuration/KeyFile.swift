/// A parsed key file in the format of GLib's GKeyFile (and of .desktop
/// files): `[group]` headers, `key=value` lines, `#` comments.
///
/// Parsed here rather than with g_key_file so that the core stays free of C
/// modules and so that every error can name the line it is on, which
/// GKeyFile does not report. The grammar follows GKeyFile's: whitespace
/// around `=` is dropped, values take the escapes \s \n \t \r \\, and lists
/// are separated by `;`. Unlike GKeyFile, a key or group given twice is an
/// error rather than silently merged or overridden: in a file this small a
/// repeat is a mistake.
public struct KeyFile: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let key: String
        /// The value as written, escapes not yet applied.
        public let rawValue: String
        public let line: Int
    }

    public struct Group: Sendable, Equatable {
        public let name: String
        public let line: Int
        public fileprivate(set) var entries: [Entry]
    }

    public private(set) var groups: [Group] = []

    public struct SyntaxError: Error, Sendable, Equatable {
        public let line: Int
        public let message: String
    }

    public init(parsing text: String) throws(SyntaxError) {
        var lineNumber = 0
        // "\r\n" is one Character in Swift, so both line ends are named.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let line = rawLine.drop(while: { $0 == " " || $0 == "\t" })
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard let close = line.firstIndex(of: "]") else {
                    throw SyntaxError(line: lineNumber, message: "a group header must end with ]")
                }
                let name = line[line.index(after: line.startIndex)..<close]
                let trailing = line[line.index(after: close)...]
                guard trailing.allSatisfy({ $0 == " " || $0 == "\t" }) else {
                    throw SyntaxError(line: lineNumber, message: "nothing may follow the ] of a group header")
                }
                guard !name.isEmpty, !name.contains("["), !name.unicodeScalars.contains(where: Self.isControl) else {
                    throw SyntaxError(line: lineNumber, message: "a group name must not be empty or contain [ or control characters")
                }
                if groups.contains(where: { $0.name == name }) {
                    throw SyntaxError(line: lineNumber, message: "group [\(name)] appears twice")
                }
                groups.append(Group(name: String(name), line: lineNumber, entries: []))
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw SyntaxError(line: lineNumber, message: "a line must be a [group], a key=value pair or a # comment")
            }
            var key = line[..<equals]
            while key.last == " " || key.last == "\t" { key = key.dropLast() }
            let value = line[line.index(after: equals)...].drop(while: { $0 == " " || $0 == "\t" })
            guard !key.isEmpty, !key.unicodeScalars.contains(where: Self.isControl) else {
                throw SyntaxError(line: lineNumber, message: "a key must not be empty")
            }
            guard !groups.isEmpty else {
                throw SyntaxError(line: lineNumber, message: "key \(key) comes before any [group]")
            }
            if groups[groups.count - 1].entries.contains(where: { $0.key == key }) {
                throw SyntaxError(
                    line: lineNumber, message: "key \(key) appears twice in group [\(groups[groups.count - 1].name)]")
            }
            groups[groups.count - 1].entries.append(Entry(key: String(key), rawValue: String(value), line: lineNumber))
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }

    /// A value with GKeyFile's escapes applied, or nil when an escape is not
    /// one GKeyFile knows.
    public static func unescape(_ raw: String) -> String? {
        var result = ""
        var iterator = raw.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch iterator.next() {
            case "s": result += " "
            case "n": result += "\n"
            case "t": result += "\t"
            case "r": result += "\r"
            case "\\": result += "\\"
            default: return nil
            }
        }
        return result
    }

    /// A list value: items separated by `;` (a trailing one optional, `\;`
    /// for a literal semicolon), each unescaped and trimmed of spaces.
    public static func splitList(_ raw: String) -> [String]? {
        var items: [String] = []
        var current = ""
        var iterator = raw.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            switch scalar {
            case ";":
                items.append(current)
                current = ""
            case "\\":
                guard let next = iterator.next() else { return nil }
                if next == ";" {
                    current += ";"
                } else {
                    current.unicodeScalars.append("\\")
                    current.unicodeScalars.append(next)
                }
            default:
                current.unicodeScalars.append(scalar)
            }
        }
        if !current.isEmpty { items.append(current) }
        var result: [String] = []
        for item in items {
            guard let value = unescape(item) else { return nil }
            let trimmed = value.trimmingSpacesAndTabs()
            if !trimmed.isEmpty { result.append(trimmed) }
        }
        return result
    }
}
