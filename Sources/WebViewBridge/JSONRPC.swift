import SleepTimerCore

/// A JSON-RPC 2.0 error object.
public struct RPCError: Error, Sendable, Equatable {
    public let code: Int
    public let message: String
    public let data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public static let parseError = RPCError(code: -32700, message: "Parse error")
    public static let invalidRequest = RPCError(code: -32600, message: "Invalid Request")
    public static let methodNotFound = RPCError(code: -32601, message: "Method not found")
    /// Never with internals or secrets.
    public static let internalError = RPCError(code: -32603, message: "Internal error")

    /// -32602, naming the parameter at fault and why.
    public static func invalidParams(_ parameter: String, _ reason: String) -> RPCError {
        RPCError(code: -32602, message: "Invalid params",
                 data: .object([("parameter", .string(parameter)), ("reason", .string(reason))]))
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [("code", .number(String(code))), ("message", .string(message))]
        if let data { members.append(("data", data)) }
        return .object(members)
    }
}

/// The methods behind the server: each answers once, through `reply`, on
/// the caller's loop.
public protocol RPCMethods: AnyObject {
    func call(_ method: String, params: JSONValue?, reply: @escaping (Result<JSONValue, RPCError>) -> Void)
}

/// JSON-RPC 2.0, transport-agnostic: one JSON text in, zero or one JSON
/// text out (https://www.jsonrpc.org/specification). Requests of a batch
/// run concurrently; their answers come back together, in the order asked.
public final class JSONRPCServer {
    /// The largest message read; a larger one is an invalid request.
    public static let maximumMessageBytes = 1 << 20
    /// How deep arrays and objects may nest.
    public static let maximumDepth = 32
    /// How many requests a batch may hold.
    public static let maximumBatch = 100

    private let methods: RPCMethods

    public init(methods: RPCMethods) {
        self.methods = methods
    }

    /// Answers one message; `reply` gets the answer's text, or nil when
    /// there is none (notifications only).
    public func handle(_ message: [UInt8], reply: @escaping (String?) -> Void) {
        guard message.count <= Self.maximumMessageBytes else {
            reply(Self.response(id: .null, .failure(RPCError(
                code: -32600, message: "Invalid Request",
                data: .object([("reason", .string("the message is larger than \(Self.maximumMessageBytes) bytes"))])))).serialized)
            return
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(message, maximumDepth: Self.maximumDepth)
        } catch .tooDeep {
            reply(Self.response(id: .null, .failure(RPCError(
                code: -32600, message: "Invalid Request",
                data: .object([("reason", .string("the message nests deeper than \(Self.maximumDepth) levels"))])))).serialized)
            return
        } catch {
            reply(Self.response(id: .null, .failure(.parseError)).serialized)
            return
        }
        if case .array(let members) = value {
            guard !members.isEmpty else {
                reply(Self.response(id: .null, .failure(.invalidRequest)).serialized)
                return
            }
            guard members.count <= Self.maximumBatch else {
                reply(Self.response(id: .null, .failure(RPCError(
                    code: -32600, message: "Invalid Request",
                    data: .object([("reason", .string("a batch may hold at most \(Self.maximumBatch) requests"))])))).serialized)
                return
            }
            var answers = [JSONValue?](repeating: nil, count: members.count)
            var remaining = members.count
            for (index, member) in members.enumerated() {
                dispatch(member) { answer in
                    answers[index] = answer
                    remaining -= 1
                    guard remaining == 0 else { return }
                    let present = answers.compactMap { $0 }
                    reply(present.isEmpty ? nil : JSONValue.array(present).serialized)
                }
            }
        } else {
            dispatch(value) { reply($0?.serialized) }
        }
    }

    /// One request object: its response, or nil for a notification.
    private func dispatch(_ request: JSONValue, answer: @escaping (JSONValue?) -> Void) {
        guard case .object = request else {
            answer(Self.response(id: .null, .failure(.invalidRequest)))
            return
        }
        let id = request["id"]
        let idIsValid: Bool
        switch id {
        case nil, .string?, .number?, .null?: idIsValid = true
        default: idIsValid = false
        }
        let echoedID = idIsValid ? (id ?? .null) : .null
        guard idIsValid, request["jsonrpc"] == .string("2.0"), case .string(let method)? = request["method"] else {
            answer(Self.response(id: echoedID, .failure(.invalidRequest)))
            return
        }
        let params = request["params"]
        switch params {
        case nil, .array?, .object?: break
        default:
            answer(Self.response(id: echoedID, .failure(.invalidRequest)))
            return
        }
        let isNotification = id == nil
        methods.call(method, params: params) { result in
            answer(isNotification ? nil : Self.response(id: echoedID, result))
        }
    }

    static func response(id: JSONValue, _ result: Result<JSONValue, RPCError>) -> JSONValue {
        switch result {
        case .success(let value):
            return .object([("jsonrpc", .string("2.0")), ("result", value), ("id", id)])
        case .failure(let error):
            return .object([("jsonrpc", .string("2.0")), ("error", error.json), ("id", id)])
        }
    }

    /// A notification from the server to the client.
    public static func notification(_ method: String, _ params: JSONValue) -> String {
        JSONValue.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]).serialized
    }
}

/// The bridge's parts run on its one loop's thread: the compiler keeps them there.
@available(*, unavailable)
extension JSONRPCServer: Sendable {}
