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
        guard Base64Text.isStrict(text) else { return nil }
        guard !text.isEmpty else { return [] }
        var length: gsize = 0
        guard let bytes = g_base64_decode(String(decoding: text, as: UTF8.self), &length) else { return nil }
        defer { g_free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(length)))
    }
}
