// libFuzzer target: the WebView bridge's JSON-RPC 2.0 message handling.
//
// Each input is one message as the WebView would write it. It goes through
// the real JSONRPCServer over a real SleepTimerBridge that has no session bus
// and no allowed API origin, so that no call ever leaves the process:
// session.set is always refused, every method that needs a session answers
// "no session", and nothing is sent over HTTP. The answer is then checked
// against what the JSON-RPC 2.0 specification and the bridge promise; any
// violation traps, which libFuzzer reports as a crash.
//
// libFuzzer's own main is linked in by `--sanitize=fuzzer`; this file has no
// top-level code. Run it through scripts/fuzz.sh.

import DFLTestSupport
import EventLoop
import HTTPClient
import SleepTimerCore
import WebViewBridge

/// A string that, sent as an access token, must never come back.
let canary = "CANARY_SECRET"

// libFuzzer calls the target on one thread only, the one these are made on,
// so loop-confined globals are safe there; the compiler cannot know it.
nonisolated(unsafe) let loop = MainLoop()
nonisolated(unsafe) let http = HTTPClient(loop: loop, settings: HTTPSettings())
nonisolated(unsafe) let bridge = SleepTimerBridge(
    connection: nil, http: http, loop: loop, allowedOrigins: AllowedOrigins([]), agentStateDirectory: nil,
    // Every line is dropped, after a check that none of them holds the canary.
    log: DroppingLog { message in
        if message.contains(canary) { violation("a log line holds the canary: \(message)") }
    })
nonisolated(unsafe) let server = JSONRPCServer(methods: bridge)

/// Every error code the bridge may answer with: the specification's own and
/// the bridge's (-32001 refused by the platform, -32002 unreachable, -32003
/// agent unavailable, -32010 no session).
let allowedCodes: Set<Int> = [-32700, -32600, -32601, -32602, -32603, -32001, -32002, -32003, -32010]

func violation(_ what: String) -> Never {
    fatalError("JSON-RPC invariant violated: \(what)")
}

// MARK: What the answer must be

/// What one request of the message must get back.
enum Expected {
    /// Nothing (a notification).
    case nothing
    /// An error with this code, and this id.
    case error(code: Int, id: JSONValue)
    /// This result, and this id.
    case result(JSONValue, id: JSONValue)
}

/// The outcome of a well-formed call of this bridge, which has no session bus
/// and allows no API origin.
enum Outcome {
    case result(JSONValue)
    case error(code: Int)
}

func outcome(of method: String) -> Outcome {
    switch method {
    case "bridge.getCapabilities":
        return .result(.object([("protocolVersion", .number("1")), ("nativeSleepTimer", .bool(false))]))
    case "session.clear":
        return .result(.object([("purged", .number("0"))]))
    case "session.set":
        // No origin is allowed: every session is refused, with its params named.
        return .error(code: -32602)
    case "sleepTimer.upsert", "sleepTimer.remove", "sleepTimers.reconcile":
        return .error(code: -32010)
    default:
        return .error(code: -32601)
    }
}

/// What one element (a whole message, or one member of a batch) must get.
func expectation(for request: JSONValue) -> Expected {
    guard case .object = request else { return .error(code: -32600, id: .null) }
    let id = request["id"]
    let idIsValid: Bool
    switch id {
    case nil, .string?, .number?, .null?: idIsValid = true
    default: idIsValid = false
    }
    let echoed = idIsValid ? (id ?? .null) : .null
    guard idIsValid, request["jsonrpc"] == .string("2.0"), case .string(let method)? = request["method"] else {
        return .error(code: -32600, id: echoed)
    }
    switch request["params"] {
    case nil, .array?, .object?: break
    default: return .error(code: -32600, id: echoed)
    }
    if id == nil { return .nothing }
    switch outcome(of: method) {
    case .result(let value): return .result(value, id: echoed)
    case .error(let code): return .error(code: code, id: echoed)
    }
}

/// What the whole message must get: nil for no answer at all, else one
/// response (`single`) or an array of responses.
enum ExpectedAnswer {
    case none
    case single(Expected)
    case batch([Expected])
}

func expectedAnswer(for bytes: [UInt8]) -> ExpectedAnswer {
    if bytes.count > JSONRPCServer.maximumMessageBytes { return .single(.error(code: -32600, id: .null)) }
    let value: JSONValue
    do {
        value = try JSONParser.parse(bytes, maximumDepth: JSONRPCServer.maximumDepth)
    } catch .tooDeep {
        return .single(.error(code: -32600, id: .null))
    } catch {
        return .single(.error(code: -32700, id: .null))
    }
    guard case .array(let members) = value else {
        let one = expectation(for: value)
        if case .nothing = one { return .none }
        return .single(one)
    }
    guard !members.isEmpty, members.count <= JSONRPCServer.maximumBatch else {
        return .single(.error(code: -32600, id: .null))
    }
    let answers = members.map(expectation).filter {
        if case .nothing = $0 { return false }
        return true
    }
    return answers.isEmpty ? .none : .batch(answers)
}

// MARK: Checking the answer

/// Checks one response object against what it must be.
func check(_ response: JSONValue, _ expected: Expected, _ answer: String) {
    guard case .object(let members) = response else { violation("a response is not an object: \(answer)") }
    let names = members.map(\.0)
    guard Set(names).count == names.count else { violation("a response repeats a member: \(answer)") }
    guard response["jsonrpc"] == .string("2.0") else { violation("a response lacks \"jsonrpc\": \"2.0\": \(answer)") }
    guard let id = response["id"] else { violation("a response has no id: \(answer)") }
    switch id {
    case .string, .number, .null: break
    default: violation("a response's id is neither a string, a number nor null: \(answer)")
    }
    let result = response["result"]
    let error = response["error"]
    guard (result == nil) != (error == nil) else { violation("a response must hold exactly one of result and error: \(answer)") }
    guard Set(names).isSubset(of: ["jsonrpc", "id", "result", "error"]) else { violation("a response has other members: \(answer)") }
    if let error {
        guard case .object(let errorMembers) = error else { violation("an error is not an object: \(answer)") }
        guard Set(errorMembers.map(\.0)).isSubset(of: ["code", "message", "data"]) else {
            violation("an error has other members: \(answer)")
        }
        guard case .number(let codeText)? = error["code"], let code = Int(codeText) else {
            violation("an error code is not an integer: \(answer)")
        }
        guard allowedCodes.contains(code) else { violation("the error code \(code) is not one of the bridge's: \(answer)") }
        guard case .string(let message)? = error["message"], !message.isEmpty else {
            violation("an error has no message: \(answer)")
        }
        if code == -32602 {
            guard case .string? = error["data"]?["parameter"], case .string? = error["data"]?["reason"] else {
                violation("an invalid-params error does not name the parameter and why: \(answer)")
            }
        }
    }
    switch expected {
    case .nothing:
        violation("a notification was answered: \(answer)")
    case .error(let code, let expectedID):
        guard case .number(let codeText)? = error?["code"], Int(codeText) == code else {
            violation("expected error \(code), answered \(answer)")
        }
        guard id == expectedID else { violation("expected id \(expectedID.serialized), answered \(answer)") }
    case .result(let value, let expectedID):
        guard result == value else { violation("expected result \(value.serialized), answered \(answer)") }
        guard id == expectedID else { violation("expected id \(expectedID.serialized), answered \(answer)") }
    }
}

/// Whether the canary appears in any id of the message, the one place a
/// value sent is echoed.
func idsHoldCanary(_ value: JSONValue?) -> Bool {
    func holds(_ member: JSONValue?) -> Bool {
        if case .string(let text)? = member { return text.contains(canary) }
        return false
    }
    switch value {
    case .array(let members)?: return members.contains { holds($0["id"]) }
    case .object?: return holds(value?["id"])
    default: return false
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let expected = expectedAnswer(for: bytes)

    var calls = 0
    var answer: String?
    server.handle(bytes) { text in
        calls += 1
        answer = text
    }
    // Without a bus or an allowed origin, every answer comes at once.
    guard calls == 1 else { violation("the reply callback ran \(calls) times") }

    switch (expected, answer) {
    case (.none, nil):
        return 0
    case (.none, let text?):
        violation("notifications only, yet answered \(text)")
    case (_, nil):
        violation("no answer to a message that needs one")
    case (.single(let one), let text?):
        guard let response = try? JSONParser.parse(Array(text.utf8), maximumDepth: 64) else {
            violation("the answer is not JSON: \(text)")
        }
        check(response, one, text)
    case (.batch(let many), let text?):
        guard let response = try? JSONParser.parse(Array(text.utf8), maximumDepth: 64) else {
            violation("the answer is not JSON: \(text)")
        }
        guard case .array(let responses) = response else { violation("a batch was not answered with an array: \(text)") }
        guard responses.count == many.count else {
            violation("\(many.count) responses expected, \(responses.count) given: \(text)")
        }
        for (one, expected) in zip(responses, many) { check(one, expected, text) }
    }

    // A canary sent anywhere but in an id (as an access token, above all)
    // never comes back.
    if let text = answer, text.contains(canary) {
        let request = try? JSONParser.parse(bytes, maximumDepth: JSONRPCServer.maximumDepth)
        guard idsHoldCanary(request) else { violation("the canary came back: \(text)") }
    }
    return 0
}
