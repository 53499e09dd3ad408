import CDFLLinux
import CompletionSender
import DFLDBus
import EventLoop
import Glibc
import HTTPClient
import Notifications
import SleepAgent
import SleepTimerCore
import SleepTimerStore
import StatusNotifier

/// The dfl-sleep-agent process: reads the configuration, opens the store,
/// takes the bus name, and runs the one event loop until SIGTERM or SIGINT.
public final class AgentApp {
    let arguments: [String]
    let environment: [String: String]
    let log: StderrLog

    public static let usage = """
        Usage: dfl-sleep-agent [--help] [--version]

        Mirrors running Sleep timers of the Dreams for Littles app as desktop
        notifications, and serves com.dreamsforlittles.SleepTimers1 on the
        session bus. Normally started by the session bus or by systemd --user.

        Configuration: $XDG_CONFIG_HOME/dreamsforlittles/sleep-agent.conf,
        then $XDG_CONFIG_DIRS (/etc/xdg). State: $XDG_STATE_HOME/dreamsforlittles.
        """

    public init(arguments: [String], environment: [String: String]) {
        self.arguments = arguments
        self.environment = environment
        log = StderrLog(threshold: environment["DFL_LOG_DEBUG"] == "1" ? .debug : .info)
    }

    /// Exit statuses, after sysexits.h.
    public enum Status {
        public static let success: Int32 = 0
        public static let failure: Int32 = 1
        public static let usage: Int32 = 64
        public static let unavailable: Int32 = 69
        public static let configuration: Int32 = 78
    }

    public func run() -> Int32 {
        switch Array(arguments.dropFirst()) {
        case []:
            break
        case ["--help"], ["-h"]:
            print(Self.usage)
            return Status.success
        case ["--version"]:
            print("dfl-sleep-agent \(AgentProperties.version)")
            return Status.success
        default:
            FileDescriptorOutput.standardError.write("dfl-sleep-agent: unknown argument \(arguments.dropFirst().first ?? "")\n\(Self.usage)\n")
            return Status.usage
        }

        // The token lives in this process's memory: no core dumps, no
        // ptrace by other processes of the user.
        if dfl_disable_core_dumps() != 0 {
            log.log(.warning, "Could not turn core dumps off: \(String(cString: strerror(errno))).")
        }
        umask(0o077)

        let configuration: Configuration
        do {
            let loaded = try Configuration.load(environment: environment)
            configuration = loaded.configuration
            log.log(.info, loaded.file.map { "Configuration from \($0)." } ?? "No configuration file; using the defaults.")
        } catch {
            log.log(.error, "The configuration cannot be used: \(error)")
            return Status.configuration
        }
        if configuration.allowedOrigins.origins.isEmpty {
            log.log(.warning, "No allowed-origins are configured, so every Mirror will be refused. Add the app's API origin to [platform] allowed-origins in \(Configuration.relativePath).")
        }

        guard let location = StoreLocation.standard(environment: environment) else {
            log.log(.error, "Neither XDG_STATE_HOME nor HOME is set to an absolute path; there is nowhere to keep the timer store.")
            return Status.configuration
        }
        let clock = SystemClock()
        let store: SleepTimerStore?
        do {
            store = try SleepTimerStore(location: location, log: log, clock: clock)
        } catch {
            log.log(.error, "\(error). The agent answers on the bus, saying so, until the store can be used.")
            store = nil
        }

        let loop = MainLoop()
        let connection: BusConnection
        do {
            connection = try BusConnection(bus: .session, loop: loop)
        } catch {
            log.log(.error, "Cannot connect to the session bus: \(error.message)")
            return Status.unavailable
        }

        var parts: Parts?
        var unavailable: UnavailableService?
        if let store {
            parts = wire(store: store, configuration: configuration, connection: connection, loop: loop, clock: clock)
        } else {
            unavailable = UnavailableService(connection: connection, reason: "the store at \(location.databasePath) could not be opened")
            unavailable?.register()
        }

        do {
            switch try connection.requestName(TimerService.busName, queue: false) {
            case .primaryOwner, .alreadyOwner:
                break
            case .exists, .inQueue:
                log.log(.error, "Another program already owns \(TimerService.busName) on this session bus (is dfl-sleep-agent already running?); exiting.")
                return Status.failure
            }
        } catch {
            log.log(.error, "Cannot take the name \(TimerService.busName): \(error.message)")
            return Status.unavailable
        }

        var exitStatus = Status.success
        let systemd = SystemdNotify(environment: environment)
        func shutDown(_ reason: String, status: Int32) {
            log.log(.info, "\(reason); shutting down.")
            systemd.send("STOPPING=1")
            exitStatus = status
            connection.releaseName(TimerService.busName)
            connection.flush()
            loop.quit()
        }
        loop.onSignal(SIGTERM) { shutDown("SIGTERM received", status: Status.success) }
        loop.onSignal(SIGINT) { shutDown("SIGINT received", status: Status.success) }
        connection.addFilter { message in
            guard message.kind == .signal, message.interface == "org.freedesktop.DBus.Local",
                message.member == "Disconnected"
            else { return false }
            shutDown("The session bus went away", status: Status.failure)
            return true
        }

        if let parts {
            parts.agent.start()
            parts.notifications.start()
            parts.sender.start()
            parts.network.start(loop: loop, log: log) { parts.sender.networkCameBack() }
            log.log(.info, "dfl-sleep-agent \(AgentProperties.version) serves \(TimerService.busName) with \(parts.agent.properties.runningCount) timer(s).")
        }
        systemd.send("READY=1")
        loop.run()
        parts?.network.stop()
        connection.close()
        store?.close()
        withExtendedLifetime(unavailable) {}
        return exitStatus
    }

    /// The agent's parts, wired to one store, bus connection and loop.
    struct Parts {
        let agent: Agent
        let notifications: NotificationPresenter
        let sender: CompletionSender
        let network: NetworkWatch
    }

    private func wire(
        store: SleepTimerStore, configuration: Configuration, connection: BusConnection, loop: MainLoop, clock: SystemClock
    ) -> Parts {
        let timeZones = ZoneInfoDirectory(environment: environment)
        let agent = Agent(
            store: store, configuration: configuration, timeZones: timeZones, clock: clock, log: log, loop: loop,
            opener: DeepLinkOpener(configuration: configuration, connection: connection, environment: environment, log: log),
            crashPoints: CrashPoints(environment: environment))
        let service = TimerService(connection: connection, agent: agent, log: log)
        agent.addObserver(service)
        service.register()
        var httpSettings = HTTPSettings()
        httpSettings.pinnedPublicKeys = configuration.pinnedPublicKeys
        httpSettings.certificateAuthorities = configuration.certificateAuthorities
        httpSettings.userAgent = "dfl-sleep-agent/\(AgentProperties.version)"
        if !HTTPClient.resolvesAsynchronously {
            log.log(.warning, "This libcurl resolves names synchronously; a hung DNS server can delay completions.")
        }
        // The sender hears of a recorded click before the notifications do:
        // its request starts before the (synchronous) notification update.
        let sender = CompletionSender(
            agent: agent, http: HTTPClient(loop: loop, settings: httpSettings), loop: loop, clock: clock, log: log)
        agent.addObserver(sender)
        let notifications = NotificationPresenter(
            agent: agent, connection: connection, loop: loop, hourCycle: Self.localHourCycle(), timeZones: timeZones,
            clock: clock, log: log)
        agent.addObserver(notifications)
        // The panel indicator (a StatusNotifierItem while a panel shows one);
        // its menu clicks go through the same agent calls as the buttons.
        let indicator = IndicatorAgentObserver(
            agent: agent, connection: connection, loop: loop,
            opener: DeepLinkOpener(configuration: configuration, connection: connection, environment: environment, log: log),
            clock: clock, log: log)
        agent.addObserver(indicator)
        indicator.start()
        let network = NetworkWatch()
        return Parts(agent: agent, notifications: notifications, sender: sender, network: network)
    }

    /// The locale's clock, from LC_TIME as glibc reads it.
    static func localHourCycle() -> HourCycle {
        setlocale(LC_TIME, "")
        return HourCycle(posixTimeFormat: String(cString: nl_langinfo(nl_item(T_FMT))))
    }
}
