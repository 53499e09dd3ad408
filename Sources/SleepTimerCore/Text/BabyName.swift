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

    public var description: String { text }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return true
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
