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
