import Foundation
import Testing
@testable import SleepTimerCore

/// The core reads JSON shapes, platform replies, the clock, files and the
/// environment without Foundation now; these tests hold each piece against
/// what Foundation answered before, on the same inputs. (Base64, now
/// GLib's, is held to Foundation in GLibParsingTests/GLibBase64Tests.)
@Suite struct FoundationEquivalenceTests {
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
