import DFLDBus
import EventLoop
import Foundation

/// A notification server for the benchmark, in this same executable (run
/// as `dfl-bench notification-server RECORD-FILE`): it owns
/// org.freedesktop.Notifications on the private bus, answers as a server
/// must, and writes one line per Notify, "<wall-clock ns> <replaces_id>",
/// stamped the moment the call is dispatched.
enum Recorder {
    static func run(recordPath: String) -> Int32 {
        let loop = MainLoop()
        let descriptor = open(recordPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0, let connection = try? BusConnection(bus: .session, loop: loop) else { return 1 }
        let output = FileDescriptorOutput(descriptor: descriptor)
        var nextID: UInt32 = 1
        connection.register(path: ExternalInterface.Notifications.path) { message in
            guard message.kind == .methodCall, message.interface == ExternalInterface.Notifications.interface else { return false }
            let received = Clock.wallNanoseconds()
            let reply = message.methodReturn()
            switch message.member {
            case "GetCapabilities":
                reply.append(.strings(["actions", "body", "body-markup", "persistence"]))
            case "GetServerInformation":
                reply.append(.string("bench-recorder"), .string("Dreams for Littles benchmarks"), .string("1.0"), .string("1.2"))
            case "Notify":
                let replaces = (try? message.arguments())?.dropFirst().first?.uint32Value ?? 0
                let id = replaces != 0 ? replaces : nextID
                if replaces == 0 { nextID += 1 }
                reply.append(.uint32(id))
                output.write("\(received) \(replaces)\n")
            case "CloseNotification":
                let id = (try? message.arguments())?.first?.uint32Value ?? 0
                connection.send(reply)
                connection.send(Message.signal(path: ExternalInterface.Notifications.path, interface: ExternalInterface.Notifications.interface,
                                               member: "NotificationClosed").append(.uint32(id), .uint32(3)))
                return true
            default:
                connection.send(message.errorReply(name: BusError.Names.unknownMethod, message: "unknown method"))
                return true
            }
            connection.send(reply)
            return true
        }
        guard (try? connection.requestName(ExternalInterface.Notifications.name)) == .primaryOwner else { return 1 }
        loop.onSignal(SIGTERM) { loop.quit() }
        loop.run()
        connection.close()
        return 0
    }

    /// The Notify timestamps recorded so far.
    static func read(_ path: String) -> [(received: Int64, replaces: UInt32)] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 2, let received = Int64(fields[0]), let replaces = UInt32(fields[1]) else { return nil }
            return (received, replaces)
        }
    }
}
