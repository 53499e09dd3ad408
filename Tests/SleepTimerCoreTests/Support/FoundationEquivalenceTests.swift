import Foundation
import Testing
@testable import SleepTimerCore

/// The core reads base64, JSON shapes, platform replies, the clock, files
/// and the environment without Foundation now; these tests hold each piece
/// against what Foundation answered before, on the same inputs.
@Suite struct FoundationEquivalenceTests {
    /// The project's seeded generator: the same inputs on every run.
    typealias Random = SplitMix64

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

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private struct AnyObject: Decodable {
        init(from decoder: any Decoder) throws { _ = try decoder.container(keyedBy: AnyKey.self) }
    }

    /// RFC 8259 JSON: read as JSONDecoder read it.
    static let jsonSamples = [
        "{}", " { } ", "{\"alg\":\"HS256\",\"typ\":\"JWT\"}", "[]", "\"x\"", "1", "null", "{", "{\"a\":}",
        "{\"a\":1}x", "{\"a\":[1,2,{\"b\":null}]}", "{\"a\":1e400}", "{'a':1}", "{\"a\":NaN}", "{\"a\":-0.5E+3}", "",
        "{\"activity\":{\"id\":\"4f1c2d3e\"},\"timerId\":\"t\"}", "{\"activity\":{\"id\":7}}", "{\"activity\":[]}",
        "{\"error\":{\"code\":\"already_completed\",\"message\":\"m\"}}", "{\"error\":\"x\"}",
        "{\"activity\":{\"id\":\"a\"},\"activity\":{\"id\":\"b\"}}", "{\"a\":\"\\u00e9\\n\"}",
    ]

    /// What JSONDecoder on Linux took although RFC 8259 does not allow it: a
    /// trailing comma, a byte order mark, a lone surrogate, a leading zero,
    /// a raw tab in a string. The project's parser refuses them, as the
    /// bridge always did; no platform reply looks like this.
    static let lenientSamples = ["{\"a\":1,}", "\u{FEFF}{}", "{\"a\":\"\\ud800\"}", "{\"a\":01}", "{\"a\":\"tab\there\"}"]

    @Test(arguments: lenientSamples)
    func jsonBeyondTheRFCIsRefusedWhereJSONDecoderTookIt(_ text: String) {
        #expect((try? JSONDecoder().decode(AnyObject.self, from: Data(text.utf8))) != nil)
        #expect(!JSONShape.isObject(Array(text.utf8)))
    }

    @Test(arguments: jsonSamples)
    func aJSONObjectIsRecognisedAsJSONDecoderRecognisedIt(_ text: String) {
        let foundation = (try? JSONDecoder().decode(AnyObject.self, from: Data(text.utf8))) != nil
        #expect(JSONShape.isObject(Array(text.utf8)) == foundation)
    }

    private struct Success: Decodable {
        struct Activity: Decodable { let id: String }
        let activity: Activity
    }

    private struct Failure: Decodable {
        struct Detail: Decodable { let code: String }
        let error: Detail
    }

    @Test(arguments: jsonSamples)
    func platformRepliesAreReadAsJSONDecoderReadThem(_ text: String) {
        let body = Array(text.utf8)
        let now = Instant(millisecondsSince1970: 0)
        let id = try? JSONDecoder().decode(Success.self, from: Data(body)).activity.id
        let code = try? JSONDecoder().decode(Failure.self, from: Data(body)).error.code
        if let id, !id.isEmpty {
            #expect(CompletionReplyRule.verdict(status: 201, body: body, retryAfter: nil, now: now) == .created(activityID: id))
        } else if case .created = CompletionReplyRule.verdict(status: 201, body: body, retryAfter: nil, now: now) {
            Issue.record("created from a reply JSONDecoder did not read")
        }
        let alreadyCompleted = CompletionReplyRule.verdict(status: 409, body: body, retryAfter: nil, now: now) == .alreadyCompleted
        #expect(alreadyCompleted == (code == "already_completed"))
    }

    @Test func theClockReadsAsDateDid() {
        let before = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let now = SystemClock().now().millisecondsSince1970
        let after = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        #expect(before <= now && now <= after)
    }

    @Test func theEnvironmentIsProcessInfosEnvironment() {
        #expect(ProcessEnvironment.current == ProcessInfo.processInfo.environment)
    }

    @Test func aFileIsReadWhole() throws {
        let path = NSTemporaryDirectory() + "dfl-core-read-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0) }
        try Data(bytes).write(to: URL(filePath: path))
        #expect(try Configuration.readFile(path) == bytes)
        #expect(try System.read(path, limit: 10) == Array(bytes.prefix(10)))
    }

    @Test func aMissingFileIsNoneAndADirectoryIsNotRead() throws {
        #expect(try Configuration.readFile("/nonexistent/dreamsforlittles/sleep-agent.conf") == nil)
        #expect(throws: FileReadError.notRegularFile) { try Configuration.readFile(NSTemporaryDirectory()) }
    }
}

extension SplitMix64 {
    fileprivate mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
