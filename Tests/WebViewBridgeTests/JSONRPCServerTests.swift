import SleepTimerCore
import Testing
@testable import WebViewBridge

/// The methods of the specification's examples
/// (https://www.jsonrpc.org/specification, section 7).
final class ExampleMethods: RPCMethods {
    var notified: [String] = []

    func call(_ method: String, params: JSONValue?, reply: @escaping (Result<JSONValue, RPCError>) -> Void) {
        let numbers = params?.arrayValue?.compactMap(\.int64Value)
        switch method {
        case "subtract":
            if let numbers, numbers.count == 2 { return reply(.success(.number(String(numbers[0] - numbers[1])))) }
            if let minuend = params?["minuend"]?.int64Value, let subtrahend = params?["subtrahend"]?.int64Value {
                return reply(.success(.number(String(minuend - subtrahend))))
            }
            reply(.failure(.invalidParams("params", "two numbers")))
        case "sum":
            reply(.success(.number(String((numbers ?? []).reduce(0, +)))))
        case "update", "notify_hello", "notify_sum":
            notified.append(method)
            reply(.success(.null))
        case "get_data":
            reply(.success(.array([.string("hello"), .number("5")])))
        default:
            reply(.failure(.methodNotFound))
        }
    }
}

@Suite struct JSONRPCServerTests {
    let methods = ExampleMethods()

    /// The server's answer, nil for none.
    private func exchange(_ request: String) -> String?? {
        var answer: String??
        JSONRPCServer(methods: methods).handle(Array(request.utf8)) { answer = .some($0) }
        return answer
    }

    /// Compares JSON texts as values, members in any order.
    private func same(_ actual: String?, _ expected: String) -> Bool {
        guard let actual, let left = try? JSONParser.parse(Array(actual.utf8)),
            let right = try? JSONParser.parse(Array(expected.utf8))
        else { return false }
        return canonical(left) == canonical(right)
    }

    private func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements): return .array(elements.map(canonical))
        case .object(let members): return .object(members.map { ($0.0, canonical($0.1)) }.sorted { $0.0 < $1.0 })
        default: return value
        }
    }

    @Test(arguments: [
        (#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#, #"{"jsonrpc": "2.0", "result": 19, "id": 1}"#),
        (#"{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}"#, #"{"jsonrpc": "2.0", "result": -19, "id": 2}"#),
        (#"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#,
         #"{"jsonrpc": "2.0", "result": 19, "id": 3}"#),
        (#"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#,
         #"{"jsonrpc": "2.0", "result": 19, "id": 4}"#),
        (#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#,
         #"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}"#),
        (#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#,
         #"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#),
        (#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#,
         #"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#),
        ("[\n  {\"jsonrpc\": \"2.0\", \"method\": \"sum\", \"params\": [1,2,4], \"id\": \"1\"},\n  {\"jsonrpc\": \"2.0\", \"method\"\n]",
         #"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#),
        ("[]", #"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#),
        ("[1]", #"[{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}]"#),
        ("[1,2,3]", """
            [{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
             {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
             {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}]
            """),
        ("""
            [{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
             {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
             {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
             {"foo": "boo"},
             {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
             {"jsonrpc": "2.0", "method": "get_data", "id": "9"}]
            """, """
            [{"jsonrpc": "2.0", "result": 7, "id": "1"},
             {"jsonrpc": "2.0", "result": 19, "id": "2"},
             {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
             {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "5"},
             {"jsonrpc": "2.0", "result": ["hello", 5], "id": "9"}]
            """),
    ])
    func everyExampleOfTheSpecification(_ request: String, _ expected: String) {
        let answer = exchange(request)
        #expect(answer != nil, "no answer came")
        #expect(same(answer ?? nil, expected), "answered \(String(describing: answer ?? nil))")
    }

    @Test func notificationsGetNoAnswer() {
        #expect(exchange(#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#) == .some(nil))
        #expect(exchange(#"{"jsonrpc": "2.0", "method": "foobar"}"#) == .some(nil))
        #expect(exchange("""
            [{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},
             {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]
            """) == .some(nil))
        #expect(methods.notified == ["update", "notify_sum", "notify_hello"])
    }

    @Test func idsComeBackAsSent() {
        for id in [#""abc""#, "12345678901234567890", "1.50", "-0", "null", "1e3"] {
            let answer = exchange(#"{"jsonrpc":"2.0","method":"get_data","id":\#(id)}"#)
            #expect((answer ?? nil)?.hasSuffix(#","id":\#(id)}"#) == true, "id \(id) came back as \(String(describing: answer))")
        }
    }

    @Test func anInvalidIdOrVersionOrParamsIsAnInvalidRequest() {
        for request in [
            #"{"jsonrpc":"2.0","method":"get_data","id":{}}"#, #"{"jsonrpc":"2.0","method":"get_data","id":[1]}"#,
            #"{"jsonrpc":"2.0","method":"get_data","id":true}"#, #"{"jsonrpc":"1.0","method":"get_data","id":1}"#,
            #"{"method":"get_data","id":1}"#, #"{"jsonrpc":"2.0","method":"sum","params":3,"id":1}"#, #""just a string""#,
        ] {
            #expect(exchange(request)??.contains("-32600") == true, "\(request)")
        }
    }

    @Test func theBoundsAreInvalidRequests() {
        let large = #"{"jsonrpc":"2.0","method":"get_data","params":[""# + String(repeating: "x", count: 1 << 20) + #""],"id":1}"#
        #expect(exchange(large)??.contains(#""code":-32600"#) == true)
        let deep = #"{"jsonrpc":"2.0","method":"sum","params":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + #","id":1}"#
        #expect(exchange(deep)??.contains(#""code":-32600"#) == true)
        let batch = "[" + Array(repeating: #"{"jsonrpc":"2.0","method":"get_data","id":1}"#, count: 101).joined(separator: ",") + "]"
        #expect(exchange(batch)??.hasPrefix(#"{"jsonrpc":"2.0","error":{"code":-32600"#) == true)
        let fullBatch = "[" + Array(repeating: #"{"jsonrpc":"2.0","method":"get_data","id":1}"#, count: 100).joined(separator: ",") + "]"
        #expect(exchange(fullBatch)??.hasPrefix("[") == true)
    }

    @Test func invalidParamsNameTheParameter() {
        let answer = exchange(#"{"jsonrpc":"2.0","method":"subtract","params":["a"],"id":7}"#) ?? nil
        #expect(answer?.contains(#""code":-32602"#) == true)
        #expect(answer?.contains(#""parameter":"params""#) == true)
    }
}
