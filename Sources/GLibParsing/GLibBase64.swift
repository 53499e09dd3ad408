import CDFLGLib
import SleepTimerCore

/// Base64 decoded by GLib's g_base64_decode, as strictly as the core's
/// seam asks.
///
/// g_base64_decode is lenient: it skips characters outside the alphabet
/// and reads `=` wherever it stands. So the text's shape is checked before
/// GLib decodes it: a length that is a multiple of four, the standard
/// alphabet, and `=` only as one or two characters of padding at the end.
public struct GLibBase64: Base64Decoding {
    public init() {}

    public func decode(_ text: [UInt8]) -> [UInt8]? {
        guard Self.isStrict(text) else { return nil }
        guard !text.isEmpty else { return [] }
        var length: gsize = 0
        guard let bytes = g_base64_decode(String(decoding: text, as: UTF8.self), &length) else { return nil }
        defer { g_free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(length)))
    }

    static func isStrict(_ text: [UInt8]) -> Bool {
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
