/// Decodes base64 (RFC 4648, section 4) as strictly as Foundation's
/// `Data(base64Encoded:)` without options: the standard alphabet, a length
/// that is a multiple of four, and `=` only as padding at the end; nil for
/// anything else.
///
/// A seam rather than a decoder in the core: the programs hand in GLib's
/// (GLibBase64 in GLibParsing), which every program links already.
public protocol Base64Decoding: Sendable {
    func decode(_ text: [UInt8]) -> [UInt8]?
}

/// The strict form of base64 text, as `Base64Decoding` takes it: a length
/// that is a multiple of four, the standard alphabet, and `=` only as one
/// or two characters of padding at the end. A check of the shape, not a
/// decoder: the decoders behind the seam and the configuration's key pins
/// (which curl decodes) share it.
public enum Base64Text {
    public static func isStrict(_ text: some BidirectionalCollection<UInt8>) -> Bool {
        guard text.count % 4 == 0 else { return false }
        let padding = text.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        return padding <= 2 && text.dropLast(padding).allSatisfy(isInAlphabet)
    }

    private static func isInAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "+"), UInt8(ascii: "/"):
            true
        default: false
        }
    }
}
