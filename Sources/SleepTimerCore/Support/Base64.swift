/// Base64 (RFC 4648, section 4) decoding, as Foundation's
/// `Data(base64Encoded:)` does it without options: the standard alphabet,
/// a length that is a multiple of four, and `=` only as padding at the end.
enum Base64 {
    /// The bytes `text` encodes, or nil when it is not base64.
    static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var quad: [UInt8] = []
        quad.reserveCapacity(4)
        var padding = 0
        for byte in text {
            if byte == UInt8(ascii: "=") {
                padding += 1
                quad.append(0)
            } else {
                guard padding == 0, let value = sextet(byte) else { return nil }
                quad.append(value)
            }
            guard quad.count == 4 else { continue }
            guard padding <= 2 else { return nil }
            let bits = UInt32(quad[0]) << 18 | UInt32(quad[1]) << 12 | UInt32(quad[2]) << 6 | UInt32(quad[3])
            output += [UInt8(truncatingIfNeeded: bits >> 16), UInt8(truncatingIfNeeded: bits >> 8), UInt8(truncatingIfNeeded: bits)]
                .prefix(3 - padding)
            quad.removeAll(keepingCapacity: true)
            if padding > 0 { break }
        }
        // Padding ends the text: nothing may follow the quad that holds it.
        guard quad.isEmpty, output.count == text.count / 4 * 3 - padding else { return nil }
        return output
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
