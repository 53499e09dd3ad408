import DFLDBus
import EventLoop
import Glibc
import SleepTimerCore
import SleepTimersAPI

/// Runs one dfl-sleepctl command against the agent on the session bus, as
/// any other app would: through com.dreamsforlittles.SleepTimers1 only.
public final class SleepControl {
    public enum Status {
        public static let success: Int32 = 0
        public static let refused: Int32 = 1
        public static let usage: Int32 = 64
        public static let unavailable: Int32 = 69
    }

    let output = FileDescriptorOutput.standardOutput
    let errors = FileDescriptorOutput.standardError

    public init() {}

    public func run(_ arguments: [String]) -> Int32 {
        let command: Command
        do {
            command = try Command.parse(arguments)
        } catch {
            errors.write("dfl-sleepctl: \(error.message)\nTry \"dfl-sleepctl help\".\n")
            return Status.usage
        }
        if case .help(let topic) = command {
            output.write((Command.helpText(topic) ?? Command.usage) + "\n")
            return Status.success
        }
        let loop = MainLoop()
        let connection: BusConnection
        do {
            connection = try BusConnection(bus: .session, loop: loop)
        } catch {
            return unreachable("there is no session bus (\(error.message))")
        }
        do {
            switch command {
            case .help:
                return Status.success
            case .list(let json):
                let reply = try call(connection, SleepTimers1.List.self)
                let timers = reply.first?.arrayElements ?? []
                output.write(json ? JSONOutput.array(timers) + "\n" : TimerTable.render(timers, hourCycle: localHourCycle()))
            case .status(let json):
                let reply = try connection.callAndWait(
                    Message.methodCall(destination: SleepTimers1.busName, path: SleepTimers1.objectPath,
                                       interface: StandardInterface.Properties.name, member: StandardInterface.Properties.getAll)
                        .append(.string(SleepTimers1.interface)))
                let properties = try reply.arguments().first ?? .vardict([])
                if json {
                    output.write(JSONOutput.value(properties) + "\n")
                } else {
                    for (key, value) in properties.vardictEntries ?? [] {
                        output.write("\(key): \(JSONOutput.plain(value))\n")
                    }
                }
            case .complete(let id, let at):
                let reply = try call(connection, SleepTimers1.Complete.self, .string(id), .int64(at))
                output.write("\(reply.first?.stringValue ?? "queued")\n")
            case .open(let id):
                _ = try call(connection, SleepTimers1.Open.self, .string(id))
            case .watch:
                return watch(connection, loop: loop)
            }
        } catch {
            return failure(error)
        }
        return Status.success
    }

    private func call(_ connection: BusConnection, _ method: any BusMethod.Type, _ arguments: BusValue...) throws(BusError) -> [BusValue] {
        assert(arguments.map(\.signature).joined() == method.inSignature)
        let message = Message.methodCall(destination: SleepTimers1.busName, path: SleepTimers1.objectPath,
                                         interface: SleepTimers1.interface, member: method.name)
            .append(contentsOf: arguments)
        return try connection.callAndWait(message).arguments()
    }

    /// Errors that mean nobody answers the name.
    static let unreachableErrors: Set<String> = [
        BusError.Names.serviceUnknown, BusError.Names.nameHasNoOwner, BusError.Names.noReply,
        "org.freedesktop.DBus.Error.Disconnected", "org.freedesktop.DBus.Error.Spawn.ChildExited",
        "org.freedesktop.DBus.Error.Spawn.ExecFailed", "org.freedesktop.DBus.Error.TimedOut",
    ]

    private func failure(_ error: BusError) -> Int32 {
        if Self.unreachableErrors.contains(error.name) || error.name.hasPrefix("org.freedesktop.DBus.Error.Spawn.") {
            return unreachable(error.message)
        }
        errors.write("dfl-sleepctl: \(error.message)\n")
        return Status.refused
    }

    private func unreachable(_ detail: String) -> Int32 {
        errors.write("""
            dfl-sleepctl: the Dreams for Littles sleep agent cannot be reached: \(detail).
            Start it with "systemctl --user start dfl-sleep-agent" (or log in to a desktop session) and try again.

            """)
        return Status.unavailable
    }

    /// Prints every signal of the agent as one JSON line until SIGINT or
    /// SIGTERM. The agent is pinged first, so that a missing agent is
    /// reported (or started by bus activation) instead of watched in silence.
    private func watch(_ connection: BusConnection, loop: MainLoop) -> Int32 {
        do {
            _ = try connection.callAndWait(
                Message.methodCall(destination: SleepTimers1.busName, path: SleepTimers1.objectPath,
                                   interface: StandardInterface.Peer.name, member: StandardInterface.Peer.ping))
            try connection.addMatch("type='signal',sender='\(SleepTimers1.busName)',path='\(SleepTimers1.objectPath)'")
        } catch {
            return failure(error)
        }
        connection.addFilter { [output] message in
            guard message.kind == .signal, message.path == SleepTimers1.objectPath, let line = WatchLine.render(message) else { return false }
            output.write(line + "\n")
            return true
        }
        var status = Status.success
        loop.onSignal(SIGINT) { loop.quit() }
        loop.onSignal(SIGTERM) { loop.quit() }
        connection.addFilter { message in
            guard message.interface == StandardInterface.Local.name, message.member == StandardInterface.Local.disconnected
            else { return false }
            status = Status.unavailable
            loop.quit()
            return true
        }
        loop.run()
        return status
    }

    private func localHourCycle() -> HourCycle {
        setlocale(LC_TIME, "")
        return HourCycle(posixTimeFormat: String(cString: nl_langinfo(nl_item(T_FMT))))
    }
}

/// Runs one command on its own loop's thread: the compiler keeps it there.
@available(*, unavailable)
extension SleepControl: Sendable {}
