import DFLDBus
import PanelIndicator
import SleepTimerCore

/// The panel indicator on the bus: the org.kde.StatusNotifierItem at
/// /StatusNotifierItem and its com.canonical.dbusmenu menu at /MenuBar, on
/// the agent's own connection and loop. The decisions are PanelItemMachine's;
/// this performs them: it owns the name org.kde.StatusNotifierItem-PID-1
/// while the item is shown (releasing it is what makes hosts drop the
/// item) and registers that name with the watcher, or, inside a Flatpak,
/// registers the item's object path under the agent's unique name
/// (PanelRegistrationRule); it sends the signals, and hands clicks to the
/// agent through the callbacks.
///
/// It owns no timer. Whoever owns the minute tick calls `minuteBoundary()`
/// while `wantsMinuteRefreshes` holds; `onScheduleChanged` says when that
/// (or the next boundary) may have changed.
///
/// Not Sendable: its objects and the watch serve the bus on the agent's
/// loop thread only.
public final class StatusNotifierIndicator {
    public static let itemPath = "/StatusNotifierItem"
    public static let menuPath = "/MenuBar"
    public static let itemInterface = "org.kde.StatusNotifierItem"
    public static let menuInterface = "com.canonical.dbusmenu"

    /// How the item is known to the watcher: by its own bus name while it
    /// is shown, or by object path.
    public let registration: PanelRegistrationRule.Registration
    public var onComplete: (TimerID) -> Void = { _ in }
    /// An open asked for by `caller`, the connection that clicked.
    public var onOpen: (TimerID, _ activationToken: String?, _ caller: String) -> Void = { _, _, _ in }
    public var onOpenApp: (_ activationToken: String?, _ caller: String) -> Void = { _, _ in }
    public var onQuitApp: () -> Void = {}
    /// After every change that may start, stop or move minute refreshes.
    public var onScheduleChanged: () -> Void = {}

    // Internal rather than private: the item and the menu (ItemObject.swift,
    // MenuObject.swift) read and drive them.
    var model: PanelItemMachine
    let connection: BusConnection
    let clock: any WallClock
    private let log: any LogSink
    private let watch: WatcherWatch
    var item: BusObject?
    var menuObject: BusObject?

    public init(
        visibility: IndicatorVisibility, connection: BusConnection, registration: PanelRegistrationRule.Registration, clock: any WallClock,
        log: any LogSink
    ) {
        model = PanelItemMachine(settings: .init(visibility: visibility))
        self.registration = registration
        self.connection = connection
        self.clock = clock
        self.log = log
        watch = WatcherWatch(connection: connection, log: log)
    }

    /// Exports the objects and follows the watcher, unless PanelItemMachine
    /// says the item stays off the bus (`show=never`).
    public func start() {
        guard case .export(let afterExport) = model.started(now: clock.now()) else { return }
        let item = makeItem()
        let menu = makeMenu()
        item.register()
        menu.register()
        self.item = item
        menuObject = menu
        watch.onChange = { [weak self] watcher, newInstance in
            guard let self else { return }
            self.apply(self.model.watcherChanged(watcher, newInstance: newInstance, now: self.clock.now()))
        }
        watch.start()
        apply(afterExport)
    }

    // MARK: The agent's side

    /// Every timer the agent has, as it is now.
    public func timersChanged(_ timers: [IndicatorTimer]) {
        apply(model.timersChanged(timers, now: clock.now()))
    }

    /// The app came onto the bus or left it.
    public func appRunningChanged(_ running: Bool) {
        apply(model.appRunningChanged(running, now: clock.now()))
    }

    /// A minute boundary passed: the tooltip's elapsed times move on.
    public func minuteBoundary() {
        apply(model.minuteBoundary(now: clock.now()))
    }

    public var wantsMinuteRefreshes: Bool { model.wantsMinuteRefreshes }

    public func nextMinuteBoundary(after now: Instant) -> Instant? { model.nextMinuteBoundary(after: now) }

    // MARK: Performing

    func apply(_ actions: [PanelItemMachine.ChangeAction]) {
        for action in actions {
            switch action {
            case .publish: publish()
            case .register: register()
            case .withdraw: withdraw()
            case .emit(let signal): emit(signal)
            }
        }
        onScheduleChanged()
    }

    /// A primary click on the item; `caller`: the connection that clicked.
    func apply(_ action: PanelItemMachine.ActivatedAction, caller: String) {
        switch action {
        case .open(let id, let token): onOpen(id, token, caller)
        case .openApp(let token): onOpenApp(token, caller)
        }
        onScheduleChanged()
    }

    /// A menu click of one call, nil when it does nothing; `caller`: the
    /// connection that clicked.
    func apply(_ action: EventGroupMachine.ClickedAction?, caller: String) {
        switch action {
        case .complete(let id)?: onComplete(id)
        case .open(let id, let token)?: onOpen(id, token, caller)
        case .openApp(let token)?: onOpenApp(token, caller)
        case .quitApp?: onQuitApp()
        case nil: break
        }
        onScheduleChanged()
    }

    private func publish() {
        switch registration {
        case .wellKnownName(let busName):
            log.log(.info, "The panel indicator is shown as \(busName).")
            busCall(StandardInterface.Bus.requestName, .string(busName), .uint32(4)) // DBUS_NAME_FLAG_DO_NOT_QUEUE
        case .objectPath:
            log.log(.info, "The panel indicator is shown at \(Self.itemPath) under the agent's own name.")
        }
    }

    private func withdraw() {
        switch registration {
        case .wellKnownName(let busName):
            log.log(.info, "The panel indicator is withdrawn.")
            busCall(StandardInterface.Bus.releaseName, .string(busName))
        case .objectPath:
            // No call takes an item off the watcher: it goes when
            // the agent leaves the bus. Until then it is Passive,
            // which hosts show apart or not at all.
            log.log(.info, "The panel indicator is withdrawn; registered by path, it stays with the watcher as Passive.")
            item?.signal("NewStatus", .string(PanelItemMachine.Status.passive.rawValue))
        }
    }

    /// A call to the bus daemon whose answer only matters when it fails.
    /// Sent in order with what follows: the bus gives the item its name
    /// before the watcher can hear of the item.
    private func busCall(_ member: String, _ arguments: BusValue...) {
        let call = Message.methodCall(
            destination: StandardInterface.Bus.name, path: StandardInterface.Bus.path, interface: StandardInterface.Bus.name,
            member: member
        ).append(contentsOf: arguments)
        connection.call(call) { [log] result in
            if case .failure(let error) = result { log.log(.warning, "\(member) for the panel indicator failed: \(error.message)") }
        }
    }

    private func register() {
        let call = Message.methodCall(
            destination: WatcherWatch.Watcher.name, path: WatcherWatch.Watcher.path, interface: WatcherWatch.Watcher.interface,
            member: WatcherWatch.Watcher.registerItem
        ).append(.string(registeredAs))
        connection.call(call) { [log] result in
            switch result {
            case .success: log.log(.info, "The panel indicator is registered with the StatusNotifierWatcher.")
            case .failure(let error): log.log(.warning, "The StatusNotifierWatcher refused the panel indicator: \(error.message)")
            }
        }
    }

    /// What RegisterStatusNotifierItem carries: the item's own name, or
    /// its object path (the watcher adds the sender's unique name).
    private var registeredAs: String {
        switch registration {
        case .wellKnownName(let busName): return busName
        case .objectPath: return Self.itemPath
        }
    }

    private func emit(_ signal: PanelItemMachine.Signal) {
        switch signal {
        case .newStatus(let status): item?.signal("NewStatus", .string(status.rawValue))
        case .newTitle: item?.signal("NewTitle")
        case .newToolTip: item?.signal("NewToolTip")
        case .layoutUpdated(let revision, let parent): menuObject?.signal("LayoutUpdated", .uint32(revision), .int32(parent))
        case .itemsPropertiesUpdated(let updated, let removed):
            menuObject?.signal(
                "ItemsPropertiesUpdated", BusEncoding.groupProperties(updated), BusEncoding.removedProperties(removed))
        }
    }
}

/// Serves the bus on the agent's loop thread only: the compiler keeps it there.
@available(*, unavailable)
extension StatusNotifierIndicator: Sendable {}
