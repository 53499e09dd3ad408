import DFLDBus
import DFLGettext
import EventLoop
import Glibc
import SleepTimerCore
import SleepTimersAPI
import StoreLock

/// Runs one dfl-sleepctl command against the agent on the session bus, as
/// any other app would: through com.dreamsforlittles.SleepTimers1 only, or
/// inside the Flatpak through the agent's name under the app id, which
/// answers the same and is the one the sandbox can D-Bus activate.
public final class SleepControl {
    let output = FileDescriptorOutput.standardOutput
    let errors = FileDescriptorOutput.standardError
    /// The agent's name, the same on the host and in the sandbox.
    let agentName = SleepTimers1.busName

    public init() {}

    public func run(_ arguments: [String]) -> Int32 {
        let locale = ProgramLocale.start(environment: ProcessEnvironment.current)
        let command: Command
        do {
            command = try Command.parse(arguments)
        } catch {
            let hint = tr("Try \"dfl-sleepctl help\".")
            errors.write("dfl-sleepctl: \(error.message)\n\(hint)\n")
            return ExitStatus.usage
        }
        if case .help(let topic) = command {
            output.write((Command.helpText(topic) ?? Command.usage) + "\n")
            return ExitStatus.success
        }
        let loop = MainLoop()
        let connection: BusConnection
        do {
            connection = try BusConnection(bus: .session, loop: loop)
        } catch {
            // TRANSLATORS: Why the agent cannot be reached; {error} is the
            // D-Bus library's own words, in English.
            return unreachable(tr("there is no session bus ({error})").filling(["error": error.message]))
        }
        // An agent of another session holds the store: activation here
        // would only start an agent that refuses, so say where it runs.
        if let holder = agentElsewhere(connection) { return elsewhere(holder) }
        do {
            switch command {
            case .help:
                return ExitStatus.success
            case .list(let json):
                let reply = try call(connection, SleepTimers1.List.self)
                let timers = reply.first?.arrayElements ?? []
                output.write(json ? JSONOutput.array(timers) + "\n" : TimerTable.render(timers, timeFormat: locale.timeFormat()))
            case .status(let json):
                let reply = try connection.callAndWait(
                    Message.methodCall(destination: agentName, path: SleepTimers1.objectPath,
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
                output.write(Self.completionReply(reply.first?.stringValue ?? "queued") + "\n")
            case .open(let id):
                _ = try call(connection, SleepTimers1.Open.self, .string(id))
            case .completeRunning:
                let reply = try call(connection, SleepTimers1.CompleteRunning.self)
                return report(running: reply.first?.stringValue ?? "")
            case .openRunning:
                let reply = try call(connection, SleepTimers1.OpenRunning.self)
                return report(running: reply.first?.stringValue ?? "")
            case .watch:
                return watch(connection, loop: loop)
            }
        } catch {
            return failure(error)
        }
        return ExitStatus.success
    }

    private func call(_ connection: BusConnection, _ method: any BusMethod.Type, _ arguments: BusValue...) throws(BusError) -> [BusValue] {
        assert(arguments.map(\.signature).joined() == method.inSignature)
        let message = Message.methodCall(destination: agentName, path: SleepTimers1.objectPath,
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

    /// The pid of the agent that holds this user's store, when nobody owns
    /// the agent's name on this bus.
    private func agentElsewhere(_ connection: BusConnection) -> Int32? {
        guard let directory = StoreLock.stateDirectory(environment: ProcessEnvironment.current),
            let holder = StoreLock.holder(inDirectory: directory)
        else { return nil }
        let question = Message.methodCall(
            destination: StandardInterface.Bus.name, path: StandardInterface.Bus.path,
            interface: StandardInterface.Bus.name, member: StandardInterface.Bus.nameHasOwner
        ).append(.string(agentName))
        guard let answer = try? connection.callAndWait(question).arguments().first?.booleanValue, !answer else { return nil }
        return holder
    }

    private func elsewhere(_ holder: Int32?) -> Int32 {
        let text = holder.map {
            // TRANSLATORS: dfl-sleepctl in a second session of the same user; {pid} is a process id.
            tr("the Dreams for Littles sleep agent runs in another session of yours (process {pid}), which shows your Sleep timers; it cannot be reached from this session.")
                .filling(["pid": String($0)])
        } ?? tr("the Dreams for Littles sleep agent runs in another session of yours, which shows your Sleep timers; it cannot be reached from this session.")
        errors.write("dfl-sleepctl: \(text)\n")
        return ExitStatus.unavailable
    }

    private func failure(_ error: BusError) -> Int32 {
        if error.name == SleepTimers1.ErrorName.storeInUse.name {
            return elsewhere(StoreLock.stateDirectory(environment: ProcessEnvironment.current).flatMap {
                StoreLock.holder(inDirectory: $0)
            })
        }
        if Self.unreachableErrors.contains(error.name) || error.name.hasPrefix("org.freedesktop.DBus.Error.Spawn.") {
            return unreachable(Self.unreachableReason(error))
        }
        errors.write("dfl-sleepctl: \(Self.refusal(error))\n")
        return ExitStatus.failure
    }

    /// A refusal in the reader's language: the agent's D-Bus error messages
    /// are English, for developers and logs, so the error's name, which is
    /// part of the API, decides what is said here; a name this version does
    /// not know keeps the agent's words.
    static func refusal(_ error: BusError) -> String {
        guard error.name.hasPrefix(SleepTimers1.ErrorName.prefix),
            let name = SleepTimers1.ErrorName(rawValue: String(error.name.dropFirst(SleepTimers1.ErrorName.prefix.count)))
        else { return error.message }
        switch name {
        case .unknownTimer: return tr("No Sleep timer with this id is mirrored on this desktop.")
        case .cannotComplete:
            return tr("This Sleep timer cannot be completed from the desktop now: it is being saved already, or it has to be finished in the app.")
        case .storageFailed: return tr("The agent could not write to its store (is the disk full?); nothing was changed.")
        default: return error.message
        }
    }

    /// Why nobody answers, in the reader's language; where the bus failed
    /// to start the agent, its own (English) words follow.
    static func unreachableReason(_ error: BusError) -> String {
        switch error.name {
        case BusError.Names.serviceUnknown, BusError.Names.nameHasNoOwner:
            return tr("it is not running, and the session bus cannot start it")
        case BusError.Names.noReply, "org.freedesktop.DBus.Error.TimedOut":
            return tr("it did not answer in time")
        case "org.freedesktop.DBus.Error.Disconnected":
            return tr("the session bus closed the connection")
        default:
            // TRANSLATORS: {error} is the session bus's own words, in English.
            return tr("the session bus could not start it ({error})").filling(["error": error.message])
        }
    }

    /// Complete's answer: "queued" in the reader's language.
    static func completionReply(_ reply: String) -> String {
        // TRANSLATORS: What dfl-sleepctl complete prints: the completion is
        // recorded and will be sent to the app's server.
        reply == "queued" ? trc("completion", "queued") : reply
    }

    /// What CompleteRunning or OpenRunning did: done, or why not (exit 1).
    private func report(running outcome: String) -> Int32 {
        let (text, status) = Self.runningReply(outcome)
        if let text { (status == ExitStatus.success ? output : errors).write(text + "\n") }
        return status
    }

    static func runningReply(_ outcome: String) -> (text: String?, status: Int32) {
        switch SleepTimers1.RunningOutcome(rawValue: outcome) {
        case .completed:
            // TRANSLATORS: dfl-sleepctl complete --running: the one running
            // Sleep is recorded as ended now, and will be sent to the app's server.
            return (tr("Completed the running Sleep; its notification says when it is saved."), ExitStatus.success)
        case .opened:
            return (nil, ExitStatus.success)
        case .noneRunning:
            return ("dfl-sleepctl: " + tr("no Sleep is running that can be completed from this desktop; nothing was saved."), ExitStatus.failure)
        case .several:
            return ("dfl-sleepctl: " + tr("several Sleeps are running, so none was saved; the app opens so that you can choose one."), ExitStatus.failure)
        case nil:
            return ("dfl-sleepctl: " + outcome, ExitStatus.failure)
        }
    }

    private func unreachable(_ detail: String) -> Int32 {
        // TRANSLATORS: {reason} says why: "it did not answer in time".
        let cannot = tr("the Dreams for Littles sleep agent cannot be reached: {reason}.").filling(["reason": detail])
        let start = tr("Start it with \"systemctl --user start dfl-sleep-agent\" (or log in to a desktop session) and try again.")
        errors.write("dfl-sleepctl: \(cannot)\n\(start)\n")
        return ExitStatus.unavailable
    }

    /// Prints every signal of the agent as one JSON line until SIGINT or
    /// SIGTERM. The agent is pinged first, so that a missing agent is
    /// reported (or started by bus activation) instead of watched in silence.
    /// Only the current owner of the agent's name is heard: any connection
    /// can send a signal that looks like the agent's, to everyone or to this
    /// client alone.
    private func watch(_ connection: BusConnection, loop: MainLoop) -> Int32 {
        let agent = NameOwnerWatch(name: agentName, connection: connection)
        do {
            _ = try connection.callAndWait(
                Message.methodCall(destination: agentName, path: SleepTimers1.objectPath,
                                   interface: StandardInterface.Peer.name, member: StandardInterface.Peer.ping))
            try agent.start()
            try connection.addMatch("type='signal',sender='\(agentName)',path='\(SleepTimers1.objectPath)'")
        } catch {
            return failure(error)
        }
        connection.addSignalFilter { [output] message in
            guard message.kind == .signal, message.path == SleepTimers1.objectPath, agent.sent(message),
                let line = WatchLine.render(message)
            else { return false }
            output.write(line + "\n")
            return true
        }
        var status = ExitStatus.success
        loop.onSignal(SIGINT) { loop.quit() }
        loop.onSignal(SIGTERM) { loop.quit() }
        connection.addSignalFilter { message in
            guard message.interface == StandardInterface.Local.name, message.member == StandardInterface.Local.disconnected
            else { return false }
            status = ExitStatus.unavailable
            loop.quit()
            return true
        }
        loop.run()
        return status
    }
}

/// Runs one command on its own loop's thread: the compiler keeps it there.
@available(*, unavailable)
extension SleepControl: Sendable {}
