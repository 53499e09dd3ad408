import CDFLGLib
import DFLTestSupport
import Foundation
import GLibParsing
import SleepTimerCore
import Testing

/// Base64 as GLib decodes it behind the strict shape check, held against
/// what Foundation answered when the core decoded it with Foundation, on
/// the same inputs.
@Suite struct GLibBase64Tests {
    /// The project's seeded generator: the same inputs on every run.
    typealias Random = SplitMix64

    struct Base64 {
        static func decode(_ text: [UInt8]) -> [UInt8]? { GLibBase64().decode(text) }
    }

    /// Well-formed base64 (a multiple of four characters, `=` only as one
    /// or two characters of padding at the end) decodes as before.
    @Test func wellFormedBase64DecodesAsDataBase64Encoded() {
        let alphabet = Array("ABCXYZabcxyz0189+/".utf8)
        var random = Random(seed: 1)
        for _ in 0..<20_000 {
            var sample = (0..<random.below(13)).map { _ in alphabet[random.below(alphabet.count)] }
            let short = (4 - sample.count % 4) % 4
            if short == 3 { sample.removeLast() }
            sample += [UInt8](repeating: UInt8(ascii: "="), count: short == 3 ? 0 : short)
            #expect(Base64.decode(sample) == Data(base64Encoded: Data(sample)).map(Array.init),
                    "\(String(decoding: sample, as: UTF8.self))")
        }
    }

    /// Foundation on Linux also decodes some malformed text (`AB=C`,
    /// `xXC==`, `====`); that is refused now. Whatever is still decoded,
    /// Foundation decoded the same.
    @Test func malformedBase64IsRefusedWhereFoundationGuessed() {
        for text in ["AB=C", "xXC==", "====", "0aaxcX8C=", "AAAB="] {
            #expect(Base64.decode(Array(text.utf8)) == nil)
            #expect(Data(base64Encoded: text) != nil)
        }
        let alphabet = Array("ABCXYZabcxyz0189+/=-_ .".utf8)
        var random = Random(seed: 2)
        for _ in 0..<20_000 {
            let sample = (0..<random.below(13)).map { _ in alphabet[random.below(alphabet.count)] }
            guard let ours = Base64.decode(sample) else { continue }
            #expect(ours == Data(base64Encoded: Data(sample)).map(Array.init), "\(String(decoding: sample, as: UTF8.self))")
        }
    }

    /// g_base64_decode alone decodes malformed text (skipping what is not
    /// in the alphabet, reading `=` anywhere); the shape check refuses it
    /// before GLib sees it.
    @Test func whatGLibAloneWouldDecodeIsRefused() {
        for text in ["AB=C", "YW Jj", "YW*Jj===", "YWJj\n"] {
            var length: gsize = 0
            let glib = g_base64_decode(text, &length)
            #expect(glib != nil)
            g_free(glib)
            #expect(GLibBase64().decode(Array(text.utf8)) == nil, "\(text)")
        }
        #expect(GLibBase64().decode(Array("YWJj".utf8)) == Array("abc".utf8))
        #expect(GLibBase64().decode(Array("YQ==".utf8)) == Array("a".utf8))
        #expect(GLibBase64().decode([]) == [])
    }

    /// Two characters of padding at the most: a quad of one letter and
    /// three `=` encodes no byte.
    @Test func threeCharactersOfPaddingAreRefused() {
        #expect(Base64Text.isStrict(Array("YQ==".utf8)))
        #expect(!Base64Text.isStrict(Array("Y===".utf8)))
        #expect(GLibBase64().decode(Array("Y===".utf8)) == nil)
    }
}

extension SplitMix64 {
    fileprivate mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
