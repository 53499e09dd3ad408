/// A key file in GLib's format (that of .desktop files: `[group]` headers,
/// `key=value` lines, `#` comments) as a parser hands it to the rules that
/// read it: every group and entry in file order, each with its line, so
/// that a rule's refusal can name the line.
///
/// The core holds no key file parser: the programs read key files with
/// GLib's GKeyFile (GLibKeyFiles in GLibParsing), which every program links
/// already, and tests may hand in the same parser or values of their own.
/// A group or key given twice is a syntax error: in a file this small a
/// repeat is a mistake, not something to merge or override.
public struct KeyFileContents: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let key: String
        public let line: Int
        /// The value with GKeyFile's escapes (\s \n \t \r \\) applied; nil
        /// when it holds an escape GKeyFile does not know.
        public let value: String?
        /// The value as a list: items separated by `;` (`\;` for a literal
        /// one), each unescaped, as GKeyFile splits it; nil as for `value`.
        public let list: [String]?

        public init(key: String, line: Int, value: String?, list: [String]?) {
            self.key = key
            self.line = line
            self.value = value
            self.list = list
        }
    }

    public struct Group: Sendable, Equatable {
        public let name: String
        public let line: Int
        public var entries: [Entry]

        public init(name: String, line: Int, entries: [Entry] = []) {
            self.name = name
            self.line = line
            self.entries = entries
        }
    }

    public var groups: [Group]

    public init(groups: [Group] = []) {
        self.groups = groups
    }
}

/// Text that is not a key file, with the parser's words and the line.
public struct KeyFileSyntaxError: Error, Sendable, Equatable {
    public let line: Int?
    public let message: String

    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }
}

/// Reads a key file's text; the programs hand in GLib's GKeyFile.
public protocol KeyFileParsing: Sendable {
    func parse(_ text: String) throws(KeyFileSyntaxError) -> KeyFileContents
}
