/// A baby's display name as the notification shows it.
///
/// The name comes from another process and is shown on the desktop, so it is
/// bounded and free of characters that could hide or reorder what a parent
/// reads: control characters, line and paragraph separators, and the
/// bidirectional embedding, override and isolate characters.
public struct BabyName: Hashable, Sendable, CustomStringConvertible {
    public let text: String

    /// Longest name, in user-perceived characters.
    public static let maximumCharacters = 64
    /// A second bound on code points, so that a "character" cannot carry an
    /// unbounded pile of combining marks.
    public static let maximumScalars = 256

    public enum Problem: Error, Sendable, Equatable {
        case empty
        case tooLong
        case controlCharacter
        case bidiControl

        public var explanation: String {
            switch self {
            case .empty: return "is empty"
            case .tooLong: return "is longer than \(BabyName.maximumCharacters) characters"
            case .controlCharacter: return "contains a control character or line break"
            case .bidiControl: return "contains a bidirectional override, embedding or isolate character"
            }
        }
    }

    public init(validating text: String) throws(Problem) {
        for scalar in text.unicodeScalars {
            if Self.isBidiControl(scalar) { throw .bidiControl }
            if Self.isControl(scalar) { throw .controlCharacter }
        }
        if text.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) { throw .empty }
        if text.count > Self.maximumCharacters || text.unicodeScalars.count > Self.maximumScalars {
            throw .tooLong
        }
        self.text = text
    }

    /// A name the desktop can show, made from whatever name the app holds,
    /// for a caller that must not refuse it (the WebView bridge saves the
    /// timer on the platform whatever its name): line breaks and tabs become
    /// spaces and other control characters are dropped; the bidirectional
    /// embedding, override and isolate characters are dropped, so nothing
    /// reorders or hides what a parent reads; runs of spaces become one; a
    /// character carrying a pile of combining marks keeps its first few; and
    /// a name beyond the bounds is cut at a character (grapheme) boundary
    /// and ends in "…". Nil when nothing printable is left. The result
    /// always passes `init(validating:)`, which the agent applies.
    public init?(cleaning text: String) {
        var cleaned = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars where !Self.isBidiControl(scalar) {
            if Self.isControl(scalar) && !Self.isBreakOrTab(scalar) { continue }
            if Self.isBreakOrTab(scalar) || scalar == " " {
                pendingSpace = !cleaned.isEmpty
                continue
            }
            if pendingSpace { cleaned.append(" ") }
            pendingSpace = false
            cleaned.append(scalar)
        }
        let characters = String(cleaned).map(Self.boundingMarks)
        guard let shown = Self.fitting(characters), (try? BabyName(validating: shown)) != nil else { return nil }
        self.text = shown
    }

    /// The most code points one character keeps: more than any emoji
    /// sequence holds, far fewer than a pile of combining marks.
    static let maximumScalarsPerCharacter = 16

    private static func boundingMarks(_ character: Character) -> String {
        let scalars = character.unicodeScalars
        guard scalars.count > maximumScalarsPerCharacter else { return String(character) }
        return String(String.UnicodeScalarView(scalars.prefix(maximumScalarsPerCharacter)))
    }

    /// The characters as they are when they fit both bounds, else as many
    /// whole ones as fit beside "…"; nil when there is nothing to show.
    private static func fitting(_ characters: [String]) -> String? {
        let whole = characters.joined()
        guard !whole.unicodeScalars.allSatisfy(\.properties.isWhitespace) else { return nil }
        if whole.count <= maximumCharacters && whole.unicodeScalars.count <= maximumScalars { return whole }
        var kept = ""
        var scalars = 0
        for character in characters {
            let count = character.unicodeScalars.count
            guard kept.count < maximumCharacters - 1, scalars + count < maximumScalars else { break }
            kept += character
            scalars += count
        }
        while let last = kept.unicodeScalars.last, last.properties.isWhitespace { kept.unicodeScalars.removeLast() }
        return kept.isEmpty ? nil : kept + "…"
    }

    public var description: String { text }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// Tab, line feed, vertical tab, form feed, carriage return, next line,
    /// and the line and paragraph separators: where a space was meant.
    static func isBreakOrTab(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// LRE, RLE, PDF, LRO, RLO and LRI, RLI, FSI, PDI.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
