import Testing
import SleepTimerCore

@Suite struct JSONTests {
    private func parse(_ text: String, depth: Int = 64) throws(JSONParser.Failure) -> JSONValue {
        try JSONParser.parse(Array(text.utf8), maximumDepth: depth)
    }

    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(#" {"a": [1, -2.5e+3, 0, true, false, null], "b": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\udc76", "c": {}} "#)
        #expect(value["a"] == .array([.number("1"), .number("-2.5e+3"), .number("0"), .bool(true), .bool(false), .null]))
        #expect(value["b"] == .string("x\"\\/\u{8}\u{C}\n\r\té👶"))
        #expect(value["c"] == .object([]))
    }

    @Test func numbersKeepTheirText() throws {
        #expect(try parse("12345678901234567890.50") == .number("12345678901234567890.50"))
        #expect(try parse("1.0").serialized == "1.0")
        #expect(try parse("-0").int64Value == 0)
        #expect(try parse("1e3").int64Value == nil)
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "-", "+1", "1e", "tru", "nulll", "'x'", "\"\u{1}\"",
        "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "[1 2]", "{\"a\" 1}", "{1:2}", "\"abc", "NaN",
        "[] []",
    ])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try parse(text) }
    }

    @Test func refusesInvalidUTF8InStrings() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xFF, 0xFE, 0x22]) }
    }

    @Test func boundsTheNesting() throws {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: JSONParser.Failure.tooDeep) { try parse(deep, depth: 32) }
        #expect(try parse(String(repeating: "[", count: 32) + String(repeating: "]", count: 32), depth: 32) != .null)
        // A hostile depth far beyond the stack never recurses that far.
        let hostile = String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONParser.Failure.tooDeep) { try parse(hostile, depth: 32) }
    }

    @Test func serializesCompactlyAndEscapesWhatJavaScriptCannotHold() throws {
        let value = JSONValue.object([("k", .string("a\u{2028}b\"\n\u{1}")), ("n", .array([.null, .bool(true)]))])
        #expect(value.serialized == #"{"k":"a\u2028b\"\n\u0001","n":[null,true]}"#)
        #expect(try parse(value.serialized) == value)
    }

    /// Each refusal at the place it guards: input that ends there, or holds
    /// the wrong character there (added when JSON.swift joined the mutation
    /// targets).
    @Test(arguments: [
        "[", "[1", "[1 ", "[1}", "[-]", "{\"a\"", "{\"a\" ", "{\"a\"=1}", "{\"a\":1", "{\"a\":1]", "{xa\":1}",
        "nuxl", "trux", "fals", "\"\\", "\"\\u12", "\"\\ud800", "\"\\ud800x\\udc00\"", "\"\\ud800xudc00\"", "\"\\ud800\\xdc00\"",
    ])
    func refusesAtEachGuard(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try parse(text) }
    }

    @Test func aLiteralMayEndTheInput() throws {
        #expect(try parse("null") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse("false") == .bool(false))
    }

    @Test func theDepthAllowedIsTheDepthReached() throws {
        #expect(throws: JSONParser.Failure.tooDeep) { try parse("[]", depth: 0) }
        #expect(throws: JSONParser.Failure.tooDeep) { try parse("{}", depth: 0) }
        #expect(throws: JSONParser.Failure.tooDeep) { try parse(String(repeating: "[", count: 33) + String(repeating: "]", count: 33), depth: 32) }
        #expect(throws: JSONParser.Failure.tooDeep) { try parse(#"{"a":{"b":{}}}"#, depth: 2) }
        #expect(try parse(#"{"a":{"b":1}}"#, depth: 2)["a"]?["b"] == .number("1"))
    }

    @Test func objectsAreEqualOnlyWithTheSameMembersInOrder() {
        #expect(JSONValue.object([("a", .null)]) != .object([("a", .null), ("b", .null)]))
        #expect(JSONValue.object([("a", .number("1"))]) != .object([("a", .number("2"))]))
        #expect(JSONValue.object([("a", .number("1"))]) != .object([("b", .number("1"))]))
        #expect(JSONValue.object([("a", .number("1"))]) == .object([("a", .number("1"))]))
    }

    @Test func aSpaceIsQuotedAsItselfAndControlsAsEscapes() {
        #expect(JSONValue.quote(" ") == "\" \"")
        #expect(JSONValue.quote("\u{1F}") == "\"\\u001f\"")
    }

    @Test func aRepeatedNameReadsAsItsLastValue() throws {
        #expect(try parse(#"{"a":1,"a":2}"#)["a"] == .number("2"))
    }
}
