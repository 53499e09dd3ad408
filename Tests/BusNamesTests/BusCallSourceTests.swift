import BusNames
import Foundation
import Testing

/// Every bus call's timeout comes from BusCall: these tests read every
/// Swift file under Sources and name, file:line, each call of libdbus or
/// GIO given a number of milliseconds of its own, and each call of
/// BusConnection given a timeout that is not one of BusCall's.
@Suite struct BusCallSourceTests {
    /// Sources, found from this file's place in the checkout.
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Sources")

    /// The C calls that take a timeout in milliseconds, and its place among
    /// their arguments (from 0).
    static let timeoutArgument: [String: Int] = [
        "dbus_connection_send_with_reply": 3,
        "dbus_connection_send_with_reply_and_block": 2,
        "g_dbus_connection_call": 8,
        "g_dbus_connection_call_sync": 8,
        "g_dbus_connection_call_with_unix_fd_list": 8,
        "g_dbus_connection_call_with_unix_fd_list_sync": 8,
        "g_dbus_connection_send_message_with_reply": 3,
        "g_dbus_connection_send_message_with_reply_sync": 3,
        "g_dbus_proxy_call": 4,
        "g_dbus_proxy_call_sync": 4,
        "g_dbus_proxy_call_with_unix_fd_list": 4,
        "g_dbus_proxy_call_with_unix_fd_list_sync": 4,
    ]

    /// BusConnection's calls, whose `timeout:` is a Duration.
    static let connectionCalls: Set<String> = ["call", "callAndWait"]

    struct Call {
        var name: String
        var line: Int
        var arguments: [String]
    }

    /// What a call's timeout may be: a value of BusCall, converted by it
    /// where the call takes milliseconds.
    static func fromBusCall(_ argument: String) -> Bool { argument.contains("BusCall.") }

    static func isNumber(_ argument: String) -> Bool {
        let digits = argument.hasPrefix("-") ? argument.dropFirst() : Substring(argument)
        return digits.first?.isNumber == true && digits.allSatisfy { $0.isNumber || $0 == "_" }
    }

    /// Each place in `text` that breaks the rule, as "file:line: why".
    static func findings(in text: String, file: String) -> [String] {
        calls(in: text).compactMap { call in
            let argument: String
            if let place = timeoutArgument[call.name] {
                guard place < call.arguments.count else {
                    return "\(file):\(call.line): \(call.name) has fewer arguments than its timeout's place"
                }
                argument = call.arguments[place]
            } else if let labelled = call.arguments.first(where: { $0.hasPrefix("timeout") && $0.contains(":") }) {
                argument = String(labelled[labelled.index(after: labelled.firstIndex(of: ":")!)...])
                    .trimmingCharacters(in: .whitespaces)
            } else {
                return nil
            }
            if isNumber(argument) {
                return "\(file):\(call.line): \(call.name) is given \(argument) milliseconds of its own; name the timeout in BusCall"
            }
            if !fromBusCall(argument) {
                return "\(file):\(call.line): \(call.name)'s timeout \(argument) is not one of BusCall's"
            }
            return nil
        }
    }

    /// The calls of `timeoutArgument`'s functions and of BusConnection's
    /// `.call` and `.callAndWait` in `text`, outside comments and strings,
    /// with their arguments at the top level.
    static func calls(in text: String) -> [Call] {
        let code = Array(codeOnly(text))
        var found: [Call] = []
        var index = 0
        var line = 1
        while index < code.count {
            let character = code[index]
            if character == "\n" { line += 1 }
            guard character.isLetter || character == "_", index == 0 || !isIdentifier(code[index - 1]) else {
                index += 1
                continue
            }
            var end = index
            while end < code.count, isIdentifier(code[end]) { end += 1 }
            let name = String(code[index..<end])
            let method = index > 0 && code[index - 1] == "."
            var open = end
            while open < code.count, code[open] == " " { open += 1 }
            if open < code.count, code[open] == "(",
               timeoutArgument[name] != nil && !method || connectionCalls.contains(name) && method {
                found.append(Call(name: name, line: line, arguments: arguments(code, from: open + 1)))
            }
            index = end
        }
        return found
    }

    static func isIdentifier(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// The arguments of the call whose "(" is just before `start`, split at
    /// its own commas, each trimmed.
    static func arguments(_ code: [Character], from start: Int) -> [String] {
        var arguments: [String] = []
        var current = ""
        var depth = 0
        var index = start
        while index < code.count {
            let character = code[index]
            switch character {
            case "(", "[", "{":
                depth += 1
            case ")", "]", "}":
                if depth == 0 {
                    arguments.append(current)
                    return arguments.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                }
                depth -= 1
            case "," where depth == 0:
                arguments.append(current)
                current = ""
                index += 1
                continue
            default:
                break
            }
            current.append(character)
            index += 1
        }
        return arguments.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// `text` with every comment and the inside of every string literal made
    /// spaces, its lines kept.
    static func codeOnly(_ text: String) -> String {
        let characters = Array(text)
        var out = ""
        var index = 0
        func blank(_ character: Character) { out.append(character == "\n" ? "\n" : " ") }
        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if character == "/", next == "/" {
                while index < characters.count, characters[index] != "\n" { blank(characters[index]); index += 1 }
            } else if character == "/", next == "*" {
                var depth = 0
                repeat {
                    if characters[index] == "/", index + 1 < characters.count, characters[index + 1] == "*" {
                        depth += 1; blank("/"); blank("*"); index += 2
                    } else if characters[index] == "*", index + 1 < characters.count, characters[index + 1] == "/" {
                        depth -= 1; blank("*"); blank("/"); index += 2
                    } else {
                        blank(characters[index]); index += 1
                    }
                } while depth > 0 && index < characters.count
            } else if character == "\"" {
                let triple = index + 2 < characters.count && characters[index + 1] == "\"" && characters[index + 2] == "\""
                let quotes = triple ? 3 : 1
                out.append(contentsOf: String(repeating: "\"", count: quotes))
                index += quotes
                while index < characters.count {
                    if characters[index] == "\\" {
                        blank(characters[index]); index += 1
                        if index < characters.count { blank(characters[index]); index += 1 }
                    } else if characters[index] == "\"",
                              !triple || index + 2 < characters.count && characters[index + 1] == "\"" && characters[index + 2] == "\"" {
                        out.append(contentsOf: String(repeating: "\"", count: quotes))
                        index += quotes
                        break
                    } else {
                        blank(characters[index]); index += 1
                    }
                }
            } else {
                out.append(character)
                index += 1
            }
        }
        return out
    }

    static func swiftFiles() throws -> [URL] {
        let walk = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        return walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
    }

    // MARK: The sources

    @Test func noBusCallUnderSourcesIsGivenATimeoutOfItsOwn() throws {
        var findings: [String] = []
        for file in try Self.swiftFiles() {
            let name = String(file.path.dropFirst(Self.sources.deletingLastPathComponent().path.count + 1))
            findings += Self.findings(in: try String(contentsOf: file, encoding: .utf8), file: name)
        }
        #expect(findings == [], "\(findings.joined(separator: "\n"))")
    }

    /// The scan sees the calls it is for: libdbus's in BusConnection and
    /// GIO's in the app, each with its timeout found.
    @Test func theScanFindsTheBusCallsOfLibdbusAndGIO() throws {
        var names: Set<String> = []
        for file in try Self.swiftFiles() {
            for call in Self.calls(in: try String(contentsOf: file, encoding: .utf8))
            where Self.timeoutArgument[call.name] != nil {
                #expect(Self.fromBusCall(call.arguments[Self.timeoutArgument[call.name]!]), "\(file.lastPathComponent):\(call.line)")
                names.insert(call.name)
            }
        }
        #expect(names.isSuperset(of: ["dbus_connection_send_with_reply", "dbus_connection_send_with_reply_and_block",
                                      "g_dbus_connection_call", "g_dbus_connection_call_sync"]))
    }

    // MARK: The scan itself

    @Test func aLiteralNumberOfMillisecondsIsNamedWithItsFileAndLine() {
        let text = """
            // g_dbus_connection_call(a, b, c, d, e, f, g, h, 1, i, j, k) in a comment is no call
            let s = "g_dbus_connection_call(a, b, c, d, e, f, g, h, 1, i, j, k)"
            g_dbus_connection_call(
                connection, name, path, interface, method, arguments, nil,
                FLAGS, 10_000, nil, { source, result, data in
                    let reply = g_dbus_connection_call_finish(source, result, nil)
                }, nil)
            connection.call(ping, timeout: BusCall.waitedOn) { _ in }
            connection.call(ping, timeoutMilliseconds: 5000) { _ in }
            connection.callAndWait(ping, timeout: .seconds(5))
            dbus_connection_send_with_reply(raw, message, &pending, BusCall.milliseconds(timeout))
            dbus_connection_send_with_reply_and_block(raw, message, -1, &error)
            methods.call(method, params: params) { _ in }
            """
        #expect(Self.findings(in: text, file: "X.swift") == [
            "X.swift:3: g_dbus_connection_call is given 10_000 milliseconds of its own; name the timeout in BusCall",
            "X.swift:9: call is given 5000 milliseconds of its own; name the timeout in BusCall",
            "X.swift:10: callAndWait's timeout .seconds(5) is not one of BusCall's",
            "X.swift:12: dbus_connection_send_with_reply_and_block is given -1 milliseconds of its own; name the timeout in BusCall",
        ])
    }
}
