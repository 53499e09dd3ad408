import DFLDBus
import Foundation
import SleepTimersAPI
import Testing

/// The files that tell GNOME Shell and KRunner where the agent answers,
/// and the interfaces' introspection files, say what the agent serves:
/// its name, the objects' paths and each method's arguments.
@Suite struct SearchFilesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func shipped(_ path: String) throws -> String {
        try String(contentsOf: repository.appending(path: path), encoding: .utf8)
    }

    /// key=value lines, comments left out.
    static func keys(_ text: String) -> [String: String] {
        var keys: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { keys[String(parts[0])] = String(parts[1]) }
        }
        return keys
    }

    /// Each method's name and its input arguments' signature, in the file's order.
    static func methods(_ xml: String) -> [String: String] {
        var methods: [String: String] = [:]
        for chunk in xml.components(separatedBy: "<method name=\"").dropFirst() {
            let name = String(chunk.prefix { $0 != "\"" })
            let body = chunk.components(separatedBy: "</method>")[0]
            let inputs = body.components(separatedBy: "<arg ").dropFirst().filter { $0.contains("direction=\"in\"") }
            methods[name] = inputs.map { $0.components(separatedBy: "type=\"")[1].prefix { $0 != "\"" } }.joined()
        }
        return methods
    }

    @Test func gnomeShellIsToldTheAgentsNameAndPathAndNeverToStartIt() throws {
        let ini = try Self.shipped("packaging/search/\(AppIdentity.appID).search-provider.ini")
        #expect(ini.contains("\n[Shell Search Provider]\n"))
        #expect(Self.keys(ini) == [
            "DesktopId": "\(AppIdentity.appID).desktop", "BusName": SleepTimers1.busName,
            "ObjectPath": SearchObjects.gnomeShellPath, "Version": "2", "AutoStart": "false",
        ])
    }

    /// The name ends in "*": KRunner then asks only a name on the bus, and
    /// starts nothing.
    @Test func kRunnerIsToldTheAgentsNameAndPathAndNeverToStartIt() throws {
        let keys = Self.keys(try Self.shipped("packaging/search/\(AppIdentity.appID).krunner.desktop"))
        #expect(keys["Type"] == "Service")
        #expect(keys["X-KDE-ServiceTypes"] == "Plasma/Runner")
        #expect(keys["X-Plasma-API"] == "DBus")
        #expect(keys["X-Plasma-DBusRunner-Service"] == SleepTimers1.busName + "*")
        #expect(keys["X-Plasma-DBusRunner-Path"] == SearchObjects.kRunnerPath)
        #expect(keys["X-Plasma-Request-Actions-Once"] == "true")
        #expect(keys["X-KDE-PluginInfo-Name"] == AppIdentity.appID)
        #expect(keys["X-KDE-PluginInfo-EnabledByDefault"] == "true")
        #expect(keys["Icon"] == SearchObjects.icon)
    }

    @Test func theIntrospectionFilesHoldTheMethodsServed() throws {
        let gnome = try Self.shipped("Sources/SleepTimersService/\(SearchInterface.GnomeShell.interface).xml")
        #expect(gnome.contains("<interface name=\"\(SearchInterface.GnomeShell.interface)\">"))
        #expect(Self.methods(gnome) == SearchInterface.GnomeShell.methods)
        let runner = try Self.shipped("Sources/SleepTimersService/\(SearchInterface.KRunner.interface).xml")
        #expect(runner.contains("<interface name=\"\(SearchInterface.KRunner.interface)\">"))
        #expect(Self.methods(runner) == SearchInterface.KRunner.methods)
    }
}
