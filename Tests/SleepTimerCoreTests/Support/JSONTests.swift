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

    @Test func aRepeatedNameReadsAsItsLastValue() throws {
        #expect(try parse(#"{"a":1,"a":2}"#)["a"] == .number("2"))
    }
}
