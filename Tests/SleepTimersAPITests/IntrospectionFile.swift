import Foundation
import FoundationXML
import SleepTimersAPI

/// The shipped introspection file, read with an XML parser of its own so
/// that the tests compare the contract module with the file itself.
struct IntrospectionFile {
    struct Member: Equatable {
        var name: String
        var arguments: [String] = []
        var reply: [String] = []
        /// The DictionaryKeys annotation of each argument that has one.
        var dictionaryKeys: [String: [String]] = [:]
    }

    var interfaces: [String] = []
    var methods: [Member] = []
    var signals: [Member] = []
    var properties: [(name: String, signature: String, access: String)] = []
    var interfaceAnnotations: [String: String] = [:]
    var text = ""

    /// Sources/SleepTimersService/com.dreamsforlittles.SleepTimers1.xml, found from
    /// this file's place in the checkout.
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/SleepTimersService/com.dreamsforlittles.SleepTimers1.xml")

    static func load() throws -> IntrospectionFile {
        let data = try Data(contentsOf: url)
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse() else { throw ParseFailure(description: parser.parserError.map { "\($0)" } ?? "unknown") }
        reader.file.text = String(decoding: data, as: UTF8.self)
        return reader.file
    }

    struct ParseFailure: Error, CustomStringConvertible { let description: String }

    private final class Reader: NSObject, XMLParserDelegate {
        var file = IntrospectionFile()
        private var member: Member?
        private var isSignal = false
        private var argument: (name: String, signature: String, isReply: Bool)?

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            switch element {
            case "interface":
                file.interfaces.append(attributes["name"] ?? "")
            case "method", "signal":
                member = Member(name: attributes["name"] ?? "")
                isSignal = element == "signal"
            case "arg":
                argument = (attributes["name"] ?? "", attributes["type"] ?? "", attributes["direction"] == "out")
            case "property":
                file.properties.append((attributes["name"] ?? "", attributes["type"] ?? "", attributes["access"] ?? ""))
            case "annotation":
                let name = attributes["name"] ?? "", value = attributes["value"] ?? ""
                if let argument, member != nil {
                    member!.dictionaryKeys[argument.name] = value.split(separator: " ").map(String.init)
                } else if member == nil {
                    file.interfaceAnnotations[name] = value
                }
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            switch element {
            case "arg":
                if let argument {
                    let text = "\(argument.signature) \(argument.name)"
                    if argument.isReply { member?.reply.append(text) } else { member?.arguments.append(text) }
                }
                argument = nil
            case "method", "signal":
                if let member { isSignal ? file.signals.append(member) : file.methods.append(member) }
                member = nil
            default:
                break
            }
        }
    }
}
