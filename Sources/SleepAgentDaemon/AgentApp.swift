import AgentWorkflows
import CDFLLinux
import CompletionSender
import DFLGettext
import DFLDBus
import EventLoop
import Glibc
import GLibParsing
import HTTPClient
import LinkOpening
import Notifications
import PanelIndicator
import SleepAgent
import SleepTimerCore
import SleepTimerStore
import SleepTimersAPI
import SleepTimersService
import StatusNotifier
import StoreLock

/// The dfl-sleep-agent process: reads the configuration, takes the store's
/// lock and the bus name, opens the store, and runs the one event loop until
/// SIGTERM or SIGINT.
public final class AgentApp {
    let arguments: [String]
    let environment: [String: String]
    let log: StderrLog
    /// The language and clock of the environment, from the start of `run`.
    private var locale = ProgramLocale()

    /// --help's text, in the reader's language.
    public static var usage: String {
        [
            tr("Usage: {synopsis}").filling(["synopsis": "dfl-sleep-agent [--help] [--version]"]),
            "",
            // TRANSLATORS: dfl-sleep-agent --help. Keep the names as they are.
            tr("Mirrors running Sleep timers of the Dreams for Littles app as desktop notifications, and serves com.dreamsforlittles.SleepTimers1 on the session bus. Normally started by the session bus or by systemd --user."),
            "",
            // TRANSLATORS: dfl-sleep-agent --help. Keep the paths as they are.
            tr("Configuration: $XDG_CONFIG_HOME/dreamsforlittles/sleep-agent.conf, then $XDG_CONFIG_DIRS (/etc/xdg)."),
            // TRANSLATORS: dfl-sleep-agent --help: where the agent keeps its timers.
            tr("State: $XDG_STATE_HOME/dreamsforlittles."),
        ].map { TextLayout.wrap($0, width: 72) }.joined(separator: "\n")
    }

    public init(arguments: [String], environment: [String: String]) {
        self.arguments = arguments
        self.environment = environment
        log = StderrLog(threshold: environment["DFL_LOG_DEBUG"] == "1" ? .debug : .info)
    }

    public func run() -> Int32 {
        NetworkEnvironment.clear(log: log)
        locale = ProgramLocale.start(environment: environment)
        if let early = handleArguments() { return early }
        if locale.localeMissing {
            log.log(.warning, "The locale the environment names (LANG, LC_ALL, LC_*) is not installed (locale -a lists "
                + "those that are); notifications are in English, with the C locale's clock.")
        }
        // The token lives in this process's memory: no core dumps, no
        // ptrace by other processes of the user.
        if dfl_disable_core_dumps() != 0 {
            log.log(.warning, "Could not turn core dumps off: \(String(cString: strerror(errno))).")
        }
        umask(0o077)
        guard let configuration = loadConfiguration(), let surfaces = chooseSurfaces() else { return ExitStatus.configuration }
        guard let location = StoreLocation.standard(environment: environment) else {
            log.log(.error, "Neither XDG_STATE_HOME nor HOME is set to an absolute path; there is nowhere to keep the timer store.")
            return ExitStatus.configuration
        }
        // The lock before the bus name and the store: the name guards one
        // bus, the lock the store, whichever bus the user's sessions have.
        let lock: StoreLock?
        switch location.takeLock() {
        case .taken(let taken):
            lock = taken
        case .held(let holder):
            return leaveTheStore(to: holder, location: location, names: surfaces.busNames)
        case .failed(let reason):
            log.log(.warning, "\(reason); going on without the guard against a second agent on this store.")
            lock = nil
        }
        defer { withExtendedLifetime(lock) {} }
        let loop = MainLoop()
        let connection: BusConnection
        do {
            connection = try BusConnection(bus: .session, loop: loop)
        } catch {
            log.log(.error, "Cannot connect to the session bus: \(error.message)")
            return ExitStatus.unavailable
        }
        // The name first, the store and the parts after: a second agent
        // leaves without touching the store, and a caller that started the
        // agent waits only for what its own call needs. A call that arrives
        // meanwhile waits in the connection's queue: nothing is dispatched
        // before the loop runs, and by then every object is registered.
        //
        // Its unique name is published before the name is taken: the bridge
        // of this installation trusts the name's owner only when it is the
        // one published here, and must find it there as soon as the name is
        // owned.
        let published = publishName(connection, location: location)
        if let failure = takeNames(surfaces.busNames, connection) {
            withdraw(published, location: location)
            return failure
        }
        let clock = SystemClock()
        let store = openStore(location, clock: clock)
        let served = serve(store: store, location: location, configuration: configuration, surfaces: surfaces,
                           connection: connection, loop: loop, clock: clock)
        let status = runLoop(loop, connection: connection, names: surfaces.busNames, parts: served.parts)
        served.parts?.network.stop()
        withdraw(published, location: location)
        connection.close()
        store?.close()
        withExtendedLifetime(served.unavailable) {}
        return status
    }

    /// Another agent holds the store: says so, answers the calls that
    /// started this one (D-Bus activation) with StoreInUse rather than
    /// leaving them to time out, and exits without touching the store.
    private func leaveTheStore(to holder: Int32?, location: StoreLocation, names: [String]) -> Int32 {
        let who = holder.map { "Another dfl-sleep-agent, process \($0)," } ?? "Another dfl-sleep-agent"
        let message = "\(who) holds the timer store in \(location.directory); this session's notifications are shown by that one."
        log.log(.error, "\(message) Exiting.")
        if isatty(2) == 1 {
            let text = holder.map {
                // TRANSLATORS: dfl-sleep-agent started by hand while another one, of another session, runs.
                tr("dfl-sleep-agent: another dfl-sleep-agent, process {pid}, holds the timer store in {directory}; this session's notifications are shown by that one.")
                    .filling(["pid": String($0), "directory": location.directory])
            } ?? tr("dfl-sleep-agent: another dfl-sleep-agent holds the timer store in {directory}; this session's notifications are shown by that one.")
                .filling(["directory": location.directory])
            FileDescriptorOutput.standardError.write(TextLayout.wrap(text, width: 72) + "\n")
        }
        let loop = MainLoop()
        guard let connection = try? BusConnection(bus: .session, loop: loop) else { return ExitStatus.temporaryFailure }
        // Each name that activated this agent is answered; one another
        // program owns is not.
        let taken = names.filter { (try? connection.requestName($0, queue: false)) == .primaryOwner }
        guard !taken.isEmpty else { return ExitStatus.temporaryFailure }
        // The calls that activated this agent came before the name's reply:
        // they wait in the connection's queue, and one turn of the loop
        // answers them.
        let service = UnavailableService(connection: connection, storeInUse: message)
        service.register()
        while loop.iterate(blocking: false) {}
        for name in taken.reversed() { connection.releaseName(name) }
        connection.flush()
        connection.close()
        return ExitStatus.temporaryFailure
    }

    /// --help and --version answer at once; anything else is a usage error.
    /// nil: run the agent.
    private func handleArguments() -> Int32? {
        switch Array(arguments.dropFirst()) {
        case []:
            return nil
        case ["--help"], ["-h"]:
            print(Self.usage)
            return ExitStatus.success
        case ["--version"]:
            print("dfl-sleep-agent \(AgentProperties.version)")
            return ExitStatus.success
        default:
            let argument = arguments.dropFirst().first ?? ""
            let unknown = tr("dfl-sleep-agent: unknown argument {argument}").filling(["argument": argument])
            FileDescriptorOutput.standardError.write("\(unknown)\n\(Self.usage)\n")
            return ExitStatus.usage
        }
    }

    private func loadConfiguration() -> Configuration? {
        let configuration: Configuration
        do {
            let loaded = try Configuration.load(environment: environment, keyFiles: GLibKeyFiles())
            configuration = loaded.configuration
            log.log(.info, loaded.file.map { "Configuration from \($0)." } ?? "No configuration file; using the defaults.")
        } catch {
            log.log(.error, "The configuration cannot be used: \(error)")
            return nil
        }
        // Unset, the list is the product's API; only a list set empty in
        // the file refuses everything, which is worth a warning.
        if configuration.allowedOrigins.origins.isEmpty {
            log.log(.warning, "[platform] allowed-origins is set to an empty list, so every Mirror will be refused. Remove the key to accept the product's API (\(ProductOrigins.api)), or name the API origin of the app you use.")
        } else {
            log.log(.info, "Timers are accepted from \(configuration.allowedOrigins.origins.map(\.description).joined(separator: ", ")).")
        }
        return configuration
    }

    /// The store, or nil when it cannot be opened: the agent then answers
    /// on the bus, saying so.
    private func openStore(_ location: StoreLocation, clock: SystemClock) -> SleepTimerStore? {
        do {
            return try SleepTimerStore(location: location, log: log, clock: clock)
        } catch {
            log.log(.error, "\(error). The agent answers on the bus, saying so, until the store can be used.")
            return nil
        }
    }

    /// The agent's parts on the bus, or the service that says the store
    /// cannot be used.
    private func serve(
        store: SleepTimerStore?, location: StoreLocation, configuration: Configuration, surfaces: Surfaces,
        connection: BusConnection, loop: MainLoop, clock: SystemClock
    ) -> (parts: Parts?, unavailable: UnavailableService?) {
        if let store {
            let parts = wire(store: store, configuration: configuration, surfaces: surfaces, connection: connection,
                             loop: loop, clock: clock)
            return (parts, nil)
        }
        let unavailable = UnavailableService(connection: connection, reason: "the store at \(location.databasePath) could not be opened")
        unavailable.register()
        return (nil, unavailable)
    }

    /// Writes this connection's unique name, with the bus's id, into the
    /// state directory (`PublishedAgentName`), for the bridge of this
    /// installation; nil when it cannot be written, and then that bridge
    /// hands this agent no token, which the log says.
    private func publishName(_ connection: BusConnection, location: StoreLocation) -> PublishedAgentName.Entry? {
        let bus = StandardInterface.Bus.self
        let question = Message.methodCall(destination: bus.name, path: bus.path, interface: bus.name, member: bus.getID)
        guard let busID = (try? connection.callAndWait(question).arguments())?.first?.stringValue, !busID.isEmpty,
            connection.uniqueName.hasPrefix(":")
        else {
            log.log(.warning, "The session bus did not say its id; the app's bridge will hand this agent no timers.")
            return nil
        }
        let entry = PublishedAgentName.Entry(busID: busID, uniqueName: connection.uniqueName)
        do {
            try PublishedAgentName.publish(entry, inDirectory: location.directory)
            return entry
        } catch {
            log.log(.warning, "\(error.description); the app's bridge will hand this agent no timers.")
            return nil
        }
    }

    /// A clean exit takes the published name back.
    private func withdraw(_ entry: PublishedAgentName.Entry?, location: StoreLocation) {
        guard let entry else { return }
        do {
            try PublishedAgentName.withdraw(entry, inDirectory: location.directory)
        } catch {
            log.log(.notice, "\(error.description).")
        }
    }

    /// Takes the bus names in order, or says why not (nil: all taken). A
    /// name another program owns stops the agent, the names taken before it
    /// given back: one agent answers at all of them or none.
    private func takeNames(_ names: [String], _ connection: BusConnection) -> Int32? {
        var taken: [String] = []
        func giveBack() { for name in taken.reversed() { connection.releaseName(name) } }
        for name in names {
            do {
                switch try connection.requestName(name, queue: false) {
                case .primaryOwner, .alreadyOwner:
                    taken.append(name)
                case .exists, .inQueue:
                    log.log(.error, "Another program already owns \(name) on this session bus (is dfl-sleep-agent already running?); exiting.")
                    giveBack()
                    return ExitStatus.failure
                }
            } catch {
                log.log(.error, "Cannot take the name \(name): \(error.message)")
                giveBack()
                return ExitStatus.unavailable
            }
        }
        return nil
    }

    /// Starts the parts and runs the loop until SIGTERM, SIGINT or the loss
    /// of the bus; returns the exit status.
    private func runLoop(_ loop: MainLoop, connection: BusConnection, names: [String], parts: Parts?) -> Int32 {
        var exitStatus = ExitStatus.success
        let systemd = SystemdNotify(environment: environment)
        func shutDown(_ reason: String, status: Int32) {
            log.log(.info, "\(reason); shutting down.")
            systemd.send("STOPPING=1")
            exitStatus = status
            for name in names.reversed() { connection.releaseName(name) }
            connection.flush()
            loop.quit()
        }
        loop.onSignal(SIGTERM) { shutDown("SIGTERM received", status: ExitStatus.success) }
        loop.onSignal(SIGINT) { shutDown("SIGINT received", status: ExitStatus.success) }
        loop.onSignal(SIGHUP) { [self] in reload(parts, systemd: systemd) }
        connection.addSignalFilter { message in
            guard message.kind == .signal, message.interface == StandardInterface.Local.name,
                message.member == StandardInterface.Local.disconnected
            else { return false }
            shutDown("The session bus went away", status: ExitStatus.failure)
            return true
        }
        if let parts {
            parts.agent.start(surface: parts.notifications, transport: parts.transport)
            parts.indicator.start()
            parts.backgroundStatus?.start()
            parts.shortcuts.start()
            parts.network.start(
                loop: loop, log: log, networkBack: { parts.agent.networkCameBack() },
                resumed: { parts.agent.clockChanged(reason: "the machine woke from a suspend") })
            log.log(.info, "dfl-sleep-agent \(AgentProperties.version) serves \(names.joined(separator: " and ")) with \(parts.agent.properties.runningCount) timer(s).")
        }
        var ready = "READY=1"
        if let parts {
            let status = ServiceStatus(systemd: systemd)
            parts.agent.addObserver(status)
            ready += "\n" + ServiceStatus.line(parts.agent.properties)
        }
        systemd.send(ready)
        loop.run()
        return exitStatus
    }

    /// The agent's parts, wired to one store, bus connection and loop.
    struct Parts {
        let agent: Agent
        let service: TimerService
        /// GNOME Shell's search provider and KRunner's runner.
        let search: SearchService
        let notifications: any NotificationSurface
        let transport: PlatformCompletionTransport
        /// The panel indicator (a StatusNotifierItem while a panel shows one).
        let indicator: IndicatorAgentObserver
        let network: SystemWatch
        /// The desktop's 12/24-hour setting, followed while the agent runs.
        let desktopClock: DesktopClock
        /// GNOME's Background Apps line, inside a Flatpak only.
        let backgroundStatus: BackgroundStatus?
        /// "Complete the running Sleep" and "Open the running Sleep" as the
        /// desktop's global shortcuts, through the portal.
        let shortcuts: GlobalShortcuts
    }

    /// What the desktop offers where the agent runs, decided once.
    struct Surfaces {
        let place: RunningPlace
        let notifications: NotificationSurfaceKind
        /// The bus names owned, in the order they are taken.
        let busNames: [String]
        let panel: PanelRegistrationRule.Registration
    }

    /// The surfaces for where the agent runs (the portals inside a
    /// Flatpak), or nil when the environment forces one that does not exist.
    private func chooseSurfaces() -> Surfaces? {
        let place = RunningPlace.current()
        do {
            let notifications = try NotificationSurfaceRule.surface(
                at: place, override: environment[NotificationSurfaceRule.overrideVariable])
            let busNames = [SleepTimers1.busName]
            let panel = try PanelRegistrationRule.registration(
                place: place, processID: getpid(), override: environment[PanelRegistrationRule.overrideVariable])
            return Surfaces(place: place, notifications: notifications, busNames: busNames, panel: panel)
        } catch {
            log.log(.error, "\(error)")
            return nil
        }
    }

    private func notificationSurface(_ kind: NotificationSurfaceKind, connection: BusConnection, loop: MainLoop,
                                     clock: SystemClock) -> any NotificationSurface
    {
        switch kind {
        case .server: return DesktopNotifications(connection: connection, loop: loop, clock: clock, log: log)
        case .portal: return PortalNotifications(connection: connection, log: log)
        }
    }

    private func wire(
        store: SleepTimerStore, configuration: Configuration, surfaces: Surfaces, connection: BusConnection,
        loop: MainLoop, clock: SystemClock
    ) -> Parts {
        let opener = DeepLinkOpener(configuration: configuration, connection: connection, environment: environment, log: log)
        let wallClock = try? WallClockAlarm(on: loop)
        if wallClock == nil {
            log.log(.warning, "No wall-clock timer could be made; waits run on the monotonic clock, and a set clock goes unnoticed until the next change.")
        }
        let desktopClock = DesktopClock(environment: environment, log: log)
        let agent = Agent(
            store: store, configuration: configuration, timeZones: GLibTimeZones(environment: environment), base64: GLibBase64(),
            timeFormat: locale.timeFormat(), clock: clock, log: log,
            alarm: wallClock ?? LoopAlarm(loop: loop, clock: clock), opener: opener,
            crashPoints: CrashPoints(environment: environment))
        let appActions = AppActions(connection: connection, log: log)
        agent.launchAppInBackground = { appActions.activate(.background) }
        wallClock?.clockChanged = { [weak agent] in agent?.clockChanged(reason: "the clock was set") }
        let backgroundStatus = BackgroundStatusMachine.applies(at: surfaces.place)
            ? BackgroundStatus(
                agent: agent, connection: connection, timeZones: GLibTimeZones(environment: environment),
                timeFormat: { [locale] in locale.timeFormat(clockFormat: desktopClock.hourCycle) }, log: log)
            : nil
        desktopClock.changed = { [weak agent, weak backgroundStatus, locale] hourCycle in
            agent?.timeFormatChanged(locale.timeFormat(clockFormat: hourCycle))
            backgroundStatus?.timeFormatChanged()
        }
        agent.readTimeFormatWhenNeeded { [locale] in locale.timeFormat(clockFormat: desktopClock.hourCycle) }
        let callers = CallerProcesses(connection: connection)
        callers.onDropped = { [weak agent] in
            agent?.noteRefusal(of: "a call", by: CallerIdentityMachine.unidentified,
                               "more calls waited for the bus to name their callers than are kept")
        }
        do {
            try callers.start()
        } catch {
            log.log(.notice, "Callers that leave the bus cannot be followed (\(error.message)); the callers kept stay bounded.")
        }
        let service = TimerService(connection: connection, agent: agent, log: log, callers: callers)
        agent.addObserver(service)
        service.register()
        let search = SearchService(connection: connection, agent: agent, log: log, callers: callers)
        search.register()
        if let backgroundStatus { agent.addObserver(backgroundStatus) }
        let httpSettings = HTTPSettings(platform: configuration, userAgent: "dfl-sleep-agent/\(AgentProperties.version)")
        if !HTTPClient.resolvesAsynchronously {
            log.log(.warning, "This libcurl resolves names synchronously; a hung DNS server can delay completions.")
        }
        return Parts(
            agent: agent, service: service, search: search,
            notifications: notificationSurface(surfaces.notifications, connection: connection, loop: loop, clock: clock),
            transport: PlatformCompletionTransport(http: HTTPClient(loop: loop, settings: httpSettings), clock: clock),
            indicator: panel(agent: agent, connection: connection, registration: surfaces.panel, clock: clock, callers: callers),
            network: SystemWatch(), desktopClock: desktopClock, backgroundStatus: backgroundStatus,
            shortcuts: GlobalShortcuts(agent: agent, connection: connection, sandboxed: surfaces.place.isSandboxed, log: log))
    }

    /// SIGHUP: the configuration is read again. What can change at run time
    /// is applied; the log names what needs a restart. A file that cannot be
    /// used is refused with its line and key, and the old configuration
    /// stays in force.
    private func reload(_ parts: Parts?, systemd: SystemdNotify) {
        systemd.send("RELOADING=1")
        defer { systemd.send("READY=1") }
        guard let parts else {
            log.log(.notice, "SIGHUP: the store cannot be used, so there is no configuration to apply.")
            return
        }
        let loaded: Configuration
        do {
            loaded = try Configuration.load(environment: environment, keyFiles: GLibKeyFiles()).configuration
        } catch {
            log.log(.error, "The reloaded configuration cannot be used, so the old one stays in force: \(error)")
            return
        }
        let change = parts.agent.reconfigure(loaded)
        if change.isEmpty { log.log(.info, "Configuration reloaded; nothing changed.") }
        if !change.applied.isEmpty {
            log.log(.info, "Configuration reloaded; applied: \(change.applied.joined(separator: ", ")).")
        }
        if !change.needsRestart.isEmpty {
            log.log(.notice, "Configuration reloaded; these take effect when the agent restarts: \(change.needsRestart.joined(separator: ", ")).")
        }
    }

    /// The panel indicator, its menu's clicks going through the same agent
    /// calls as the notification's buttons.
    private func panel(
        agent: Agent, connection: BusConnection, registration: PanelRegistrationRule.Registration, clock: SystemClock,
        callers: CallerProcesses
    ) -> IndicatorAgentObserver {
        let indicator = IndicatorAgentObserver(
            agent: agent, connection: connection, registration: registration, clock: clock, log: log, callers: callers)
        agent.addPanel(indicator)
        return indicator
    }
}

/// Runs the process on its main thread, which is the loop's: the compiler keeps it there.
@available(*, unavailable)
extension AgentApp: Sendable {}
